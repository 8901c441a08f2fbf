// The call UI against the real statecharts: the components only read the actors and send events, so
// driving the actors as the voice adapter would (and clicking as the agent would) shows what each state
// looks like and that every button sends what the statechart expects.
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ActorRefFrom, createActor } from 'xstate';
import { CALLING_STATUS, DEVICE_STATES, MAX_FEEDBACK_LENGTH } from '../../../contracts/calls';
import { type CallMachine, callMachine } from '../../machines/call.machine';
import { type VoiceDeviceMachine, voiceDeviceMachine } from '../../machines/voice-device.machine';
import { system } from '../theme';
import { CallButton } from './CallButton';
import { CallDialog } from './CallDialog';
import { FeedbackModal } from './FeedbackModal';
import { IncomingCallToast } from './IncomingCallToast';

const CALLER = '+91 90000 00002';

const sound = vi.hoisted(() => ({ play: vi.fn(async () => false) }));
vi.mock('../sound', () => ({ playNotificationSound: sound.play }));

/** What VoiceProvider draws: the four pieces over the two actors, the dialog's open state outside. */
function CallUi({
  call,
  device,
}: {
  call: ActorRefFrom<CallMachine>;
  device: ActorRefFrom<VoiceDeviceMachine>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <CallButton device={device} onClick={() => setOpen(true)} />
      <IncomingCallToast call={call} />
      <CallDialog call={call} device={device} open={open} onOpenChange={setOpen} />
      <FeedbackModal call={call} />
    </>
  );
}

const effects = {
  submitFeedback: vi.fn(),
  makeCall: vi.fn(),
  logError: vi.fn(),
  muteCall: vi.fn(),
};

function setUp({ ready = true } = {}) {
  const call = createActor(
    callMachine.provide({
      actions: {
        submitFeedback: (_, params) => effects.submitFeedback(params),
        makeCall: (_, params) => effects.makeCall(params),
        logError: (_, params) => effects.logError(params),
        muteCall: () => effects.muteCall(),
      },
    }),
  ).start();
  const device = createActor(voiceDeviceMachine).start();
  if (ready) {
    device.send({ type: 'device.setup', hasToken: true });
    device.send({ type: 'device.registered' });
  }
  render(
    <ChakraProvider value={system}>
      <CallUi call={call} device={device} />
    </ChakraProvider>,
  );
  return { call, device, user: userEvent.setup() };
}

const toast = () => screen.queryByRole('alertdialog', { name: 'Incoming Call' });
const callingStatus = () => screen.getByTestId('calling-status');
const feedbackModal = () => screen.queryByRole('dialog', { name: 'Call feedback' });
const ring = (call: ActorRefFrom<CallMachine>) =>
  act(() => call.send({ type: 'call.incoming', callSid: 'CA1', from: CALLER }));
const openPhone = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Phone' }));

beforeEach(() => {
  for (const effect of Object.values(effects)) effect.mockClear();
  sound.play.mockClear();
  // The statecharts' default effects are silent; keep the output clean of anything else.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the incoming-call toast', () => {
  it('shows "Incoming Call" from the caller with Accept, Reject and Ignore, only while it rings', async () => {
    const { call } = setUp();
    expect(toast()).toBeNull();
    await ring(call);
    const card = toast();
    expect(card).not.toBeNull();
    const inCard = within(card as HTMLElement);
    expect(inCard.getByText(`From: ${CALLER}`)).toBeInTheDocument();
    for (const name of ['Accept', 'Reject', 'Ignore']) {
      expect(inCard.getByRole('button', { name })).toBeInTheDocument();
    }
    // One chime as it appears (a blocked sound resolves false and is only warned by sound.ts).
    expect(sound.play).toHaveBeenCalledTimes(1);
  });

  it('Accept answers: the dialog opens with "On Call" and the toast is gone', async () => {
    const { call, user } = setUp();
    await ring(call);
    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(toast()).toBeNull();
    expect(call.getSnapshot().value).toBe('active');
    expect(call.getSnapshot().context.startedAt).toBeGreaterThanOrEqual(before);
    expect(screen.getByRole('dialog', { name: 'Phone' })).toBeInTheDocument();
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.onCall);
    expect(callingStatus()).toHaveAttribute('aria-live', 'polite');
    expect(feedbackModal()).toBeNull();
  });

  it('Reject: "Call Rejected" and the feedback modal', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(toast()).toBeNull();
    expect(call.getSnapshot().context.statusText).toBe(CALLING_STATUS.rejected);
    expect(feedbackModal()).toBeInTheDocument();
  });

  it('Ignore: "Call Ignored", no feedback modal, and Dismiss frees the line', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Ignore' }));
    expect(toast()).toBeNull();
    expect(feedbackModal()).toBeNull();
    await openPhone(user);
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.ignored);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.idle);
    expect(call.getSnapshot().value).toBe('idle');
  });
});

describe('the call dialog', () => {
  it('hang up opens the feedback modal; rate, write, submit sends the feedback and shows it saving', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await act(() => call.send({ type: 'call.logCreated', callId: 'call-1' }));
    await user.click(screen.getByRole('button', { name: 'Hang up' }));
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.disconnected);

    const modal = feedbackModal() as HTMLElement;
    expect(modal).toBeInTheDocument();
    const inModal = within(modal);
    const submit = inModal.getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    expect(inModal.getByRole('radiogroup', { name: 'Rating' })).toBeInTheDocument();
    await user.click(inModal.getByRole('radio', { name: '4 stars' }));
    expect(inModal.getByRole('radio', { name: '4 stars' })).toBeChecked();
    const notes = inModal.getByRole('textbox', { name: 'Notes' });
    expect(notes).toHaveAttribute('maxLength', String(MAX_FEEDBACK_LENGTH));
    await user.type(notes, 'Clear line');
    expect(submit).toBeEnabled();
    await user.click(submit);

    expect(effects.submitFeedback).toHaveBeenCalledTimes(1);
    expect(effects.submitFeedback.mock.calls[0]?.[0]).toMatchObject({
      callId: 'call-1',
      feedbackData: { rating: 4, text: 'Clear line' },
      callDetails: { callStatus: 'Connected' },
    });
    expect(call.getSnapshot().value).toBe('submittingFeedback');
    expect(inModal.getByRole('button', { name: 'Submitting' })).toHaveAttribute('data-loading');
    expect(inModal.getByRole('button', { name: 'Skip' })).toBeDisabled();

    await act(() => call.send({ type: 'feedback.submitted' }));
    await waitFor(() => expect(feedbackModal()).toBeNull());
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.idle);
  });

  it('shows why saving the feedback failed, and Skip closes the modal', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await user.click(screen.getByRole('radio', { name: '1 star' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await act(() => call.send({ type: 'feedback.failed', message: 'The call log was not found' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The call log was not found');
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    // The machine is done at once; the dialog leaves once its exit (presence) has run.
    expect(call.getSnapshot().value).toBe('idle');
    await waitFor(() => expect(feedbackModal()).toBeNull());
  });

  it('dials from the pad once the device is ready: "Call Connecting", then answered "Call Connected"', async () => {
    const { call, user } = setUp();
    await openPhone(user);
    const pad = screen.getByRole('group', { name: 'Dial pad' });
    for (const key of '9000000003') await user.click(within(pad).getByRole('button', { name: key }));
    await user.click(within(pad).getByRole('button', { name: '#' }));
    await user.click(screen.getByRole('button', { name: 'Delete last digit' }));
    expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('9000000003');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(effects.makeCall).toHaveBeenCalledWith({ number: '9000000003' });
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.connecting);
    expect(screen.queryByRole('group', { name: 'Dial pad' })).toBeNull();
    await act(() => call.send({ type: 'call.answered', at: Date.now() }));
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.connected);
  });

  it('does not dial while the device is not ready: the status stays "No Active Calls"', async () => {
    const { call, user } = setUp({ ready: false });
    await openPhone(user);
    expect(screen.getByTestId('device-status')).toHaveTextContent(DEVICE_STATES.notReady);
    await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '+91 90000 00003');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(effects.makeCall).not.toHaveBeenCalled();
    expect(effects.logError).toHaveBeenCalledWith({ message: 'Unable to make call.' });
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.idle);
    expect(call.getSnapshot().value).toBe('idle');
  });

  it('says a malformed number is not one, and does not dial it', async () => {
    const { user } = setUp();
    await openPhone(user);
    await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '12ab');
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(effects.makeCall).not.toHaveBeenCalled();
    expect(screen.getByText(/Enter a valid phone number/)).toBeInTheDocument();
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.idle);
  });

  it('mute and unmute: "Call is Muted", the toggle pressed, then "On Call" again', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    const mute = screen.getByRole('button', { name: 'Mute' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    expect(effects.muteCall).toHaveBeenCalledTimes(1);
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.muted);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    await user.click(mute);
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.onCall);
    expect(mute).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows reconnecting and reconnected', async () => {
    const { call, user } = setUp();
    await ring(call);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await act(() => call.send({ type: 'call.reconnecting' }));
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.reconnecting);
    await act(() => call.send({ type: 'call.reconnected' }));
    expect(callingStatus()).toHaveTextContent(CALLING_STATUS.reconnected);
  });

  it('counts the call time from the answer', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T10:00:00Z') });
    const call = createActor(callMachine).start();
    const device = createActor(voiceDeviceMachine).start();
    render(
      <ChakraProvider value={system}>
        <CallUi call={call} device={device} />
      </ChakraProvider>,
    );
    act(() => call.send({ type: 'call.incoming', callSid: 'CA1', from: CALLER }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.getByTestId('call-timer')).toHaveTextContent('0:00');
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByTestId('call-timer')).toHaveTextContent('0:05');
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByTestId('call-timer')).toHaveTextContent('1:05');
    fireEvent.click(screen.getByRole('button', { name: 'Hang up' }));
    expect(screen.queryByTestId('call-timer')).toBeNull();
    expect(call.getSnapshot().context.durationSeconds).toBe(65);
  });
});

describe('the device status', () => {
  it.each([
    ['notReady', [], DEVICE_STATES.notReady],
    ['registering', ['setup'], DEVICE_STATES.registering],
    ['ready', ['setup', 'registered'], DEVICE_STATES.ready],
    ['offline', ['setup', 'registered', 'offline'], DEVICE_STATES.offline],
    ['disconnected', ['setup', 'error'], DEVICE_STATES.disconnected],
    ['destroyed', ['setup', 'registered', 'destroy'], DEVICE_STATES.destroyed],
  ] as const)('%s reads "%s" in the dialog and the phone button', async (state, steps, text) => {
    const { device, user } = setUp({ ready: false });
    for (const step of steps) {
      act(() =>
        device.send(
          step === 'setup'
            ? { type: 'device.setup', hasToken: true }
            : step === 'error'
              ? { type: 'device.error', message: 'boom' }
              : { type: `device.${step}` },
        ),
      );
    }
    expect(device.getSnapshot().value).toBe(state);
    const button = screen.getByRole('button', { name: 'Phone' });
    expect(button).toHaveAttribute('data-device', state);
    expect(button).toHaveAccessibleDescription(text);
    await openPhone(user);
    expect(screen.getByTestId('device-status')).toHaveTextContent(text);
  });
});
