// SPEC §2 "Call dialog": the device and calling status, a dial pad, mute, hang up, a live timer, and the
// outcome of a call that ended without the feedback modal. A floating panel rather than a modal dialog:
// while it is open the rest of the back office (and the incoming-call toast) stays usable.
//
// Presentational: everything it shows is selected from the two actors, everything it does is an event.
// Its only state is the number being typed and the clock the timer reads.
import { Button, Field, Grid, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Delete, Mic, MicOff, Phone, PhoneOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { INVALID_PHONE_MESSAGE, normalisePhoneNumber } from '../../../contracts/calls';
import { type CallMachine, selectCallingStatusText } from '../../machines/call.machine';
import {
  isDeviceReady,
  selectDeviceStatusText,
  type VoiceDeviceMachine,
} from '../../machines/voice-device.machine';
import { CallStatusBlock, DeviceLine, PhonePanel } from './phone-panel';

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
  const notice = useSelector(call, (snapshot) => snapshot.context.notice);
  const deviceState = useSelector(device, (snapshot) => snapshot.value as string);
  const deviceText = useSelector(device, selectDeviceStatusText);
  const deviceReady = useSelector(device, isDeviceReady);
  const [number, setNumber] = useState('');
  const [invalid, setInvalid] = useState(false);

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

  return (
    <PhonePanel onClose={() => onOpenChange(false)}>
      <DeviceLine state={deviceState} text={deviceText} />
      {ownNumber ? (
        <Text fontSize="xs" color="fg.muted">
          Your number: {ownNumber}
        </Text>
      ) : null}
      <CallStatusBlock
        statusText={statusText}
        peer={state !== 'idle' ? peer : null}
        elapsedSeconds={answered ? elapsed : null}
        notice={notice}
      />

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
    </PhonePanel>
  );
}
