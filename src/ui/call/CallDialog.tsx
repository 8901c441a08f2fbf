// SPEC §2 "Call dialog": the device and calling status, a dial pad, mute, hang up, a live timer, and the
// outcome of a call that ended without the feedback modal. A floating panel rather than a modal dialog:
// while it is open the rest of the back office (and the incoming-call toast) stays usable.
//
// Presentational: everything it shows is selected from the two actors, everything it does is an event.
// Its only state is the number being typed and the clock the timer reads.
import { Box, Button, CloseButton, Field, Grid, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Delete, Mic, MicOff, Phone, PhoneOff } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { INVALID_PHONE_MESSAGE, normalisePhoneNumber } from '../../../contracts/calls';
import { formatCallDuration } from '../../lib/call-duration';
import { type CallMachine, selectCallingStatusText } from '../../machines/call.machine';
import {
  isDeviceReady,
  selectDeviceStatusText,
  type VoiceDeviceMachine,
} from '../../machines/voice-device.machine';
import { deviceStatusColor } from './device-status';

const DIAL_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

/** States in which a call is on the line (the hang-up and the timer apply). */
const IN_CALL = new Set(['connecting', 'active', 'reconnecting']);
/** States in which the line is free: the dial pad applies. */
const CAN_DIAL = new Set(['idle', 'ended']);

/** Seconds since `startedAt`, refreshed every second while `running`. */
export function useElapsedSeconds(startedAt: number | null, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return startedAt === null ? 0 : Math.max(0, Math.floor((now - startedAt) / 1000));
}

export interface CallDialogProps {
  call: ActorRefFrom<CallMachine>;
  device: ActorRefFrom<VoiceDeviceMachine>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The user's own number (what callees see), when known. */
  ownNumber?: string | null;
}

export function CallDialog({ call, device, open, onOpenChange, ownNumber }: CallDialogProps) {
  const state = useSelector(call, (snapshot) => snapshot.value as string);
  const statusText = useSelector(call, selectCallingStatusText);
  const startedAt = useSelector(call, (snapshot) => snapshot.context.startedAt);
  const muted = useSelector(call, (snapshot) => snapshot.context.muted);
  const peer = useSelector(call, (snapshot) => snapshot.context.phoneNumber);
  const deviceState = useSelector(device, (snapshot) => snapshot.value as string);
  const deviceText = useSelector(device, selectDeviceStatusText);
  const deviceReady = useSelector(device, isDeviceReady);
  const [number, setNumber] = useState('');
  const [invalid, setInvalid] = useState(false);
  const titleId = useId();

  const inCall = IN_CALL.has(state);
  const answered = (state === 'active' || state === 'reconnecting') && startedAt !== null;
  const elapsed = useElapsedSeconds(startedAt, answered);

  // SPEC §2: the dialog opens itself when a call starts connecting or is answered.
  useEffect(() => {
    if (state === 'connecting' || state === 'active') onOpenChange(true);
  }, [state, onOpenChange]);

  if (!open) return null;

  const type = (key: string) => {
    setInvalid(false);
    setNumber((current) => current + key);
  };
  const dial = () => {
    setInvalid(normalisePhoneNumber(number) === null);
    // The statechart decides (device not ready, not a number: refused and logged, SPEC §8).
    call.send({ type: 'call.dial', number, deviceReady });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onOpenChange(false);
  };

  return (
    <Box
      role="dialog"
      aria-labelledby={titleId}
      data-testid="call-dialog"
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
      onKeyDown={onKeyDown}
    >
      <Stack gap="3">
        <HStack justify="space-between">
          <Text id={titleId} fontWeight="semibold">
            Phone
          </Text>
          <CloseButton size="sm" aria-label="Close phone" onClick={() => onOpenChange(false)} />
        </HStack>

        <HStack gap="2" fontSize="sm" color="fg.muted">
          <Box w="2" h="2" rounded="full" bg={deviceStatusColor(deviceState)} aria-hidden flexShrink={0} />
          <Text data-testid="device-status">{deviceText}</Text>
        </HStack>
        {ownNumber ? (
          <Text fontSize="xs" color="fg.muted">
            Your number: {ownNumber}
          </Text>
        ) : null}

        <Stack gap="0" textAlign="center" py="2">
          <Text fontSize="lg" fontWeight="semibold" aria-live="polite" data-testid="calling-status">
            {statusText}
          </Text>
          {state !== 'idle' && peer ? <Text color="fg.muted">{peer}</Text> : null}
          {answered ? (
            <Text fontFamily="mono" data-testid="call-timer" aria-label="Call duration">
              {formatCallDuration(elapsed)}
            </Text>
          ) : null}
        </Stack>

        {inCall ? (
          <HStack justify="center" gap="3">
            {state !== 'connecting' ? (
              // A toggle keeps one name ("Mute") and says whether it is on with aria-pressed.
              <Button
                variant={muted ? 'solid' : 'outline'}
                aria-pressed={muted}
                disabled={state !== 'active'}
                onClick={() => call.send({ type: muted ? 'call.unmute' : 'call.mute' })}
              >
                {muted ? <MicOff /> : <Mic />}
                Mute
              </Button>
            ) : null}
            <Button colorPalette="red" onClick={() => call.send({ type: 'call.hangup', at: Date.now() })}>
              <PhoneOff />
              Hang up
            </Button>
          </HStack>
        ) : null}

        {state === 'ended' ? (
          <Button variant="outline" size="sm" onClick={() => call.send({ type: 'call.dismiss' })}>
            Dismiss
          </Button>
        ) : null}

        {CAN_DIAL.has(state) ? (
          <Stack gap="2">
            <Field.Root invalid={invalid}>
              <Field.Label>Phone number</Field.Label>
              <HStack gap="1" w="full">
                <Input
                  value={number}
                  inputMode="tel"
                  autoComplete="tel"
                  placeholder="+91 90000 00000"
                  onChange={(event) => {
                    setInvalid(false);
                    setNumber(event.target.value);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') dial();
                  }}
                />
                <Button
                  variant="ghost"
                  aria-label="Delete last digit"
                  disabled={number.length === 0}
                  onClick={() => setNumber((current) => current.slice(0, -1))}
                >
                  <Delete />
                </Button>
              </HStack>
              <Field.ErrorText>{INVALID_PHONE_MESSAGE}</Field.ErrorText>
            </Field.Root>
            <Grid templateColumns="repeat(3, 1fr)" gap="1" role="group" aria-label="Dial pad">
              {DIAL_KEYS.map((key) => (
                <Button key={key} variant="subtle" onClick={() => type(key)}>
                  {key}
                </Button>
              ))}
            </Grid>
            {deviceReady ? null : (
              <Text fontSize="sm" color="fg.muted">
                Calls can be made once the device is ready.
              </Text>
            )}
            <Button colorPalette="green" disabled={number.trim().length === 0} onClick={dial}>
              <Phone />
              Call
            </Button>
          </Stack>
        ) : null}
      </Stack>
    </Box>
  );
}
