// The call UI of a tab that does not own the voice device (src/services/voice/tab-ownership.ts): another
// tab of the same user rings and holds the call; this one shows that tab's state, read-only.
//
// - The incoming card says who calls and where to answer. It has no Accept / Reject / Ignore (and no
//   chime): answering from here would mean forwarding commands to the owner, and two tabs offering the
//   same buttons invite double answers. The ringing tab is where the call is taken.
// - The phone dialog shows the owner's device status and calling status (the same SPEC §4 texts), the
//   note "This call is on another tab." and "Use this tab for calls", which asks the owner to step
//   down; the owner refuses while a call is in progress, and the reason is shown here.
import { Button, Card, HStack, Text } from '@chakra-ui/react';
import { PhoneIncoming } from 'lucide-react';
import { useId } from 'react';
import { CALLING_STATUS } from '../../../contracts/calls';
import type { TabView, VoiceMirror } from '../../services/voice/tab-ownership';
import { useElapsedSeconds } from './CallDialog';
import { CallStatusBlock, DeviceLine, PhonePanel } from './phone-panel';
import { RINGING_CARD_PLACEMENT } from './ringing-card';

export const MIRROR_NOTE = 'This call is on another tab.';
export const MIRROR_ANSWER_NOTE = 'Answer it in the tab that is ringing.';
export const MIRROR_WAITING = 'Waiting for the tab that holds the calls…';
export const TAKE_OVER_LABEL = 'Use this tab for calls';

/** States in which the owner's call is answered: the timer runs. */
const ANSWERED = new Set(['active', 'reconnecting']);

/** Who is calling, on the tab that does not ring. */
export function MirrorIncomingCard({ incoming }: { incoming: { from: string } | null }) {
  const titleId = useId();
  if (!incoming) return null;
  return (
    <Card.Root
      role="status"
      aria-labelledby={titleId}
      data-testid="incoming-call-mirror"
      {...RINGING_CARD_PLACEMENT}
    >
      <Card.Body gap="2">
        <HStack gap="2" color="green.fg">
          <PhoneIncoming aria-hidden size={18} />
          <Card.Title id={titleId}>{CALLING_STATUS.incoming}</Card.Title>
        </HStack>
        <Text>From: {incoming.from}</Text>
        <Text fontSize="sm" color="fg.muted">
          {MIRROR_ANSWER_NOTE}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

export interface MirrorPhoneDialogProps {
  mirror: VoiceMirror | null;
  takeover: TabView['takeover'];
  onTakeOver: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The phone dialog of a mirror tab: the owner's state, and the way to move the device here. */
export function MirrorPhoneDialog({
  mirror,
  takeover,
  onTakeOver,
  open,
  onOpenChange,
}: MirrorPhoneDialogProps) {
  const answered = mirror !== null && ANSWERED.has(mirror.callState) && mirror.startedAt !== null;
  const elapsed = useElapsedSeconds(mirror?.startedAt ?? null, answered);
  if (!open) return null;
  return (
    <PhonePanel mirror onClose={() => onOpenChange(false)}>
      {mirror ? (
        <>
          <DeviceLine state={mirror.deviceState} text={mirror.deviceStatusText} />
          <CallStatusBlock
            statusText={mirror.callingStatusText}
            peer={mirror.callState !== 'idle' ? mirror.phoneNumber || null : null}
            elapsedSeconds={answered ? elapsed : null}
            notice={mirror.notice}
          />
          {mirror.feedbackOpen ? (
            <Text fontSize="sm" color="fg.muted">
              The call's feedback is open in the other tab.
            </Text>
          ) : null}
        </>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {MIRROR_WAITING}
        </Text>
      )}

      <Text fontSize="sm" data-testid="mirror-note">
        {MIRROR_NOTE}
      </Text>
      {takeover.status === 'refused' && takeover.reason ? (
        <Text fontSize="sm" color="fg.error" role="alert">
          {takeover.reason}
        </Text>
      ) : null}
      <Button variant="outline" loading={takeover.status === 'asking'} onClick={onTakeOver}>
        {TAKE_OVER_LABEL}
      </Button>
    </PhonePanel>
  );
}
