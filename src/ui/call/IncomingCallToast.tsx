// SPEC §2 "Incoming-call toast": top right, never dismissed on a timer, "Incoming Call", "From: {phone}",
// Accept / Reject / Ignore. Not a toast of the app's toaster (those time out and queue): a card of its
// own, shown exactly while the call statechart rings (isIncomingToastVisible) and gone with any answer.
import { Button, Card, HStack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { PhoneIncoming } from 'lucide-react';
import { useEffect, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { CALLING_STATUS } from '../../../contracts/calls';
import { type CallMachine, isIncomingToastVisible } from '../../machines/call.machine';
import { playNotificationSound } from '../sound';
import { RINGING_CARD_PLACEMENT } from './ringing-card';

export function IncomingCallToast({
  call,
  sound = true,
}: {
  call: ActorRefFrom<CallMachine>;
  sound?: boolean;
}) {
  const visible = useSelector(call, isIncomingToastVisible);
  const from = useSelector(call, (snapshot) => snapshot.context.phoneNumber);
  const titleId = useId();
  const bodyId = useId();

  // One chime as it appears (the provider rings on its own); a blocked or missing sound is only warned.
  useEffect(() => {
    if (visible && sound) void playNotificationSound();
  }, [visible, sound]);

  if (!visible) return null;
  return (
    <Card.Root
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="incoming-call-toast"
      {...RINGING_CARD_PLACEMENT}
      borderColor="green.solid"
    >
      <Card.Body gap="2">
        <HStack gap="2" color="green.fg">
          <PhoneIncoming aria-hidden size={18} />
          <Card.Title id={titleId}>{CALLING_STATUS.incoming}</Card.Title>
        </HStack>
        <Text id={bodyId}>From: {from}</Text>
      </Card.Body>
      <Card.Footer gap="2" justifyContent="flex-end">
        <Button size="sm" variant="ghost" onClick={() => call.send({ type: 'call.ignore' })}>
          Ignore
        </Button>
        <Button
          size="sm"
          colorPalette="red"
          variant="outline"
          onClick={() => call.send({ type: 'call.reject' })}
        >
          Reject
        </Button>
        <Button
          size="sm"
          colorPalette="green"
          onClick={() => call.send({ type: 'call.accept', at: Date.now() })}
        >
          Accept
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
