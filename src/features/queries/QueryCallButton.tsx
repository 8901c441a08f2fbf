// Click to call the customer (SPEC §5 call service): shown only when this tab's voice device is ready
// and the server says the query's phone can be rung (phoneCallable: Twilio configured, or the number
// is a back-office user's). The call goes through the same call
// statechart as the header's dial pad (its dialog opens by itself); when the call this button placed
// ends, `onEnded` gets a line for the thread, so the call is logged on the query (addConnectData).
import { Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Phone } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { normalisePhoneNumber } from '../../../contracts/calls';
import { useVoice } from '../../app/shell/VoiceProvider';
import type { VoiceHandle } from '../../app/shell/voice-handle';
import { isDeviceReady } from '../../machines/voice-device.machine';

const minutes = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.max(0, Math.round(seconds % 60))).padStart(2, '0')}`;

function ReadyCallButton({
  handle,
  number,
  onEnded,
}: {
  handle: VoiceHandle;
  number: string;
  onEnded: (summary: string) => void;
}) {
  const ready = useSelector(handle.device, isDeviceReady);
  const state = useSelector(handle.call, (snapshot) => snapshot.value as string);
  const context = useSelector(handle.call, (snapshot) => snapshot.context);
  const placed = useRef(false);
  const free = state === 'idle' || state === 'ended';

  useEffect(() => {
    if (!placed.current || state !== 'ended' || context.phoneNumber !== number) return;
    placed.current = false;
    onEnded(
      `Call to ${number}: ${context.callStatus ?? 'ended'}${context.durationSeconds ? `, ${minutes(context.durationSeconds)}` : ''}.`,
    );
  }, [state, context, number, onEnded]);

  if (!ready) return null;
  return (
    <Button
      variant="outline"
      colorPalette="green"
      disabled={!free}
      data-tour="query-call"
      onClick={() => {
        placed.current = true;
        handle.call.send({ type: 'call.dial', number, deviceReady: true });
      }}
    >
      <Phone /> Call {number}
    </Button>
  );
}

export function QueryCallButton({ phone, onEnded }: { phone: string; onEnded: (summary: string) => void }) {
  const { handle } = useVoice();
  const number = normalisePhoneNumber(phone);
  if (!handle || !number) return null;
  return <ReadyCallButton handle={handle} number={number} onEnded={onEnded} />;
}
