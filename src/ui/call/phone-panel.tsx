// The phone panel's parts, shared by the owner tab's dialog (CallDialog) and a mirror tab's read-only
// one (MirrorPhone): the floating frame with its title and close button, the device line, and the call's
// status with the other party and the timer.
import { Box, CloseButton, HStack, Stack, Text } from '@chakra-ui/react';
import { type KeyboardEvent, type ReactNode, useId } from 'react';
import { formatCallDuration } from '../../lib/call-duration';
import { deviceStatusColor } from './device-status';

/**
 * A floating panel at the bottom right, not a modal: the page and the incoming-call card stay usable.
 * Escape or the close button closes it.
 */
export function PhonePanel({
  mirror = false,
  onClose,
  children,
}: {
  mirror?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Box
      role="dialog"
      aria-labelledby={titleId}
      data-testid="call-dialog"
      data-mirror={mirror ? 'true' : undefined}
      position="fixed"
      bottom="4"
      right="4"
      left={{ base: '4', md: 'auto' }}
      width={{ md: '80' }}
      zIndex="popover"
      bg="bg.panel"
      borderWidth="1px"
      rounded="l3"
      boxShadow="lg"
      p="4"
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <Stack gap="3">
        <HStack justify="space-between">
          <Text id={titleId} fontWeight="semibold">
            Phone
          </Text>
          <CloseButton size="sm" aria-label="Close phone" onClick={onClose} />
        </HStack>
        {children}
      </Stack>
    </Box>
  );
}

/** The voice device's state: a coloured dot and the SPEC text. */
export function DeviceLine({ state, text }: { state: string; text: string }) {
  return (
    <HStack gap="2" fontSize="sm" color="fg.muted">
      <Box w="2" h="2" rounded="full" bg={deviceStatusColor(state)} aria-hidden flexShrink={0} />
      <Text data-testid="device-status">{text}</Text>
    </HStack>
  );
}

/** The calling status text (announced as it changes), the other party, and the timer once answered. */
export function CallStatusBlock({
  statusText,
  peer,
  elapsedSeconds,
  notice = null,
}: {
  statusText: string;
  peer: string | null;
  /** Null until the call is answered. */
  elapsedSeconds: number | null;
  /** Why the call rang no one ("The number you dialled is not in service."), under the status. */
  notice?: string | null;
}) {
  return (
    <Stack gap="0" textAlign="center" py="2">
      <Text fontSize="lg" fontWeight="semibold" aria-live="polite" data-testid="calling-status">
        {statusText}
      </Text>
      {peer ? <Text color="fg.muted">{peer}</Text> : null}
      {notice ? (
        <Text role="status" fontSize="sm" color="fg.error" data-testid="call-notice">
          {notice}
        </Text>
      ) : null}
      {elapsedSeconds !== null ? (
        <Text fontFamily="mono" data-testid="call-timer" aria-label="Call duration">
          {formatCallDuration(elapsedSeconds)}
        </Text>
      ) : null}
    </Stack>
  );
}
