// Model-based test of the call statechart (SPEC §4 "Calling status texts", "Incoming call", "Outgoing
// call"; §3 "Call log"; ARCHITECTURE.md "Statecharts"): every path of `getShortestPaths()` of the REAL
// machine, plus one path per transition they miss, each run against the REAL voice session
// (src/services/voice/voice-session.ts, `startVoice`) and the RENDERED call UI (the Phone button, the
// incoming-call toast, the call dialog and the feedback modal, as VoiceProvider draws them). Fakes only at
// the edges: the voice provider (FakeVoiceDevice / FakeVoiceCall, whose emitters are what Twilio's SDK
// reports), the network (a fake axios adapter that holds generateCall and the feedback's updateHistory
// until the path says they answered), the clock (the session's `now` and a faked `Date` for the UI) and
// the speaker.
//
// Each event of a path happens the way it really arrives: the agent's clicks and typing, the provider's
// events, the HTTP answers. A few events have no real source in the state they are sent in (the UI never
// shows the button there, the session has no call whose provider could report it): those are sent to the
// session's actor directly, each marked so in its executor below.
//
// The graph is the machine's own (default serialization: value and context), so a path's snapshots are
// exactly what its events make. One thing the real world cannot skip: when the feedback's answer comes
// while the machine still has no call id, the create must have answered first (the session sends the
// feedback to the log the create names), so one `call.logCreated` more happens; a shadow of the pure
// machine is fed the same, and the session's actor must equal the shadow at every step.

import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  CALLING_STATUS,
  type CallDetails,
  DEVICE_STATES,
  NO_ACTIVE_INCOMING,
  UNABLE_TO_MAKE_CALL,
} from '../../contracts/calls';
import { type CallEvent, type CallState, callMachine } from '../../src/machines/call.machine';
import { allTransitionIds, takenTransitionId } from '../../src/machines/testing/transition-coverage';
import { configureHttp, http } from '../../src/services/http';
import {
  createFakeAdapter,
  type FakeReply,
  type RecordedRequest,
} from '../../src/services/testing/fake-adapter';
import {
  FAKE_VOICE_TOKEN,
  type FakeVoiceCall,
  FakeVoiceDevice,
} from '../../src/services/voice/testing-fakes';
import {
  GENERATE_CALL_PATH,
  startVoice,
  updateHistoryPath,
  type VoiceHandle,
} from '../../src/services/voice/voice-session';
import { CallButton } from '../../src/ui/call/CallButton';
import { CallDialog } from '../../src/ui/call/CallDialog';
import { FeedbackModal } from '../../src/ui/call/FeedbackModal';
import { IncomingCallToast } from '../../src/ui/call/IncomingCallToast';
import { system } from '../../src/ui/theme';
import {
  completionPaths,
  expectFullCoverage,
  pathTransitions,
  type ModelPath as SharedModelPath,
} from './model-paths';

const sound = vi.hoisted(() => ({ play: vi.fn(async () => true) }));
vi.mock('../../src/ui/sound', () => ({ playNotificationSound: sound.play }));

type CallSnapshot = SnapshotFrom<typeof callMachine>;

// The sample events of src/machines/call.machine.test.ts ("as a test model"): fixed `at` values keep the
// context, and so the graph, finite (260 nodes, 165 shortest paths).
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const CALLER = '+919000000003';
const DIALLED = '+91 90000 00005';
const LOG_ID = 'log-1';
const FEEDBACK_FAILURE = 'Call not found';
const FEEDBACK_TEXT = 'Asked about the invoice';
const SAMPLE_EVENTS: CallEvent[] = [
  { type: 'call.incoming', callSid: 'CA-in-1', from: CALLER },
  { type: 'call.logCreated', callId: LOG_ID },
  { type: 'call.accept', at: T0 },
  { type: 'call.reject' },
  { type: 'call.ignore' },
  { type: 'call.remoteEnded', reason: 'hangup', at: T0 + 65_400 },
  { type: 'call.remoteEnded', reason: 'rejected', at: T0 + 1_000 },
  // The dialled number is nobody's (the local signalling refuses it): not picked, and said why.
  { type: 'call.remoteEnded', reason: 'notInService', at: T0 + 1_000 },
  { type: 'call.dial', number: DIALLED, deviceReady: true },
  { type: 'call.dial', number: DIALLED, deviceReady: false },
  { type: 'call.answered', at: T0, callSid: 'CA-out-1' },
  { type: 'call.hangup', at: T0 + 65_400 },
  { type: 'call.error', message: 'ConnectionError (31005)', at: T0 + 10_000 },
  { type: 'call.mute' },
  { type: 'call.unmute' },
  { type: 'call.reconnecting' },
  { type: 'call.reconnected' },
  { type: 'call.dismiss' },
  { type: 'feedback.rate', rating: 4 },
  { type: 'feedback.change', text: FEEDBACK_TEXT },
  { type: 'feedback.submit' },
  { type: 'feedback.skip' },
  { type: 'feedback.submitted' },
  { type: 'feedback.failed', message: FEEDBACK_FAILURE },
];

const model = createTestModel(callMachine, {
  events: SAMPLE_EVENTS,
  filterEvents: (snapshot, event) => snapshot.can(event),
});

// ---------------------------------------------------------------------------------------------------
// The call log as the session must write it: one FIFO queue of creates, updates and feedback (see
// voice-session.ts), replayed from the shadow's effects and the answers the test gave.

type LogEntry =
  | { kind: 'create'; call: number; body: unknown }
  | { kind: 'update'; call: number; callId: string | null; callDetails: CallDetails }
  | { kind: 'feedback'; call: number; callId: string | null; body: unknown; answer: 'held' | 'answered' };

/** What happened to each call's generateCall: still held, failed, or answered with this id. */
type CreateFate = 'held' | 'failed' | { id: string };

interface Held {
  request: RecordedRequest;
  release: (reply: FakeReply) => void;
}

interface World {
  handle: VoiceHandle;
  device: FakeVoiceDevice;
  /** The provider's call the machine is about (the ringing one, or the dialled one). */
  current: FakeVoiceCall | null;
  clock: number;
  requests: RecordedRequest[];
  heldCreates: Held[];
  heldFeedback: Held[];
  log: LogEntry[];
  creates: CreateFate[];
  shadow: Actor<typeof callMachine>;
  errors: ReturnType<typeof vi.spyOn>;
}

let world: World;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;
const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();
/** Steps run through the real edges, and steps sent to the actor directly (no real source there). */
const stepCounts = { real: 0, direct: 0 };

function createShadow(log: LogEntry[], creates: CreateFate[]) {
  return createActor(
    callMachine.provide({
      actions: {
        createLog: (_, params) => {
          creates.push('held');
          log.push({ kind: 'create', call: creates.length - 1, body: { ...params, source: 'LOCAL' } });
        },
        updateLog: (_, params) => {
          log.push({ kind: 'update', call: creates.length - 1, ...params });
        },
        submitFeedback: (_, params) => {
          log.push({
            kind: 'feedback',
            call: creates.length - 1,
            callId: params.callId,
            body: { callDetails: params.callDetails, feedbackData: params.feedbackData },
            answer: 'held',
          });
        },
      },
    }),
  ).start();
}

/** The requests the session must have made by now (what the queue could send past the held answers). */
function expectedRequests(w: World): { method: string; url: string; body: unknown }[] {
  const sent: { method: string; url: string; body: unknown }[] = [];
  const idOf = (call: number, callId: string | null) => {
    if (callId) return callId;
    const fate = w.creates[call];
    return fate && typeof fate === 'object' ? fate.id : null;
  };
  for (const entry of w.log) {
    if (entry.kind === 'create') {
      sent.push({ method: 'POST', url: GENERATE_CALL_PATH, body: entry.body });
      if (w.creates[entry.call] === 'held') break;
      continue;
    }
    const id = idOf(entry.call, entry.callId);
    if (!id) continue; // the create failed: nothing to update
    if (entry.kind === 'update') {
      sent.push({ method: 'PUT', url: updateHistoryPath(id), body: { callDetails: entry.callDetails } });
    } else {
      sent.push({ method: 'PUT', url: updateHistoryPath(id), body: entry.body });
      if (entry.answer === 'held') break;
    }
  }
  return sent;
}

function createWorld(): World {
  const heldCreates: Held[] = [];
  const heldFeedback: Held[] = [];
  const { adapter, requests } = createFakeAdapter(
    (request) =>
      new Promise<FakeReply>((resolve) => {
        if (request.url === GENERATE_CALL_PATH) return heldCreates.push({ request, release: resolve });
        if (request.method === 'PUT' && (request.body as { feedbackData?: unknown }).feedbackData)
          return heldFeedback.push({ request, release: resolve });
        if (request.url.startsWith('/api/v1/callHistory/method/updateHistory/'))
          return resolve({ status: 200, data: { data: {} } });
        resolve({ status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } });
      }),
  );
  http.defaults.adapter = adapter;
  const devices: FakeVoiceDevice[] = [];
  const log: LogEntry[] = [];
  const creates: CreateFate[] = [];
  const created = {
    current: null,
    clock: T0,
    requests,
    heldCreates,
    heldFeedback,
    log,
    creates,
    shadow: createShadow(log, creates),
    errors: vi.spyOn(console, 'error').mockImplementation(() => {}),
  } as Omit<World, 'handle' | 'device'> as World;
  created.handle = startVoice({
    now: () => created.clock,
    fetchToken: async () => FAKE_VOICE_TOKEN,
    providerFactory: (token) => {
      const device = new FakeVoiceDevice(token);
      devices.push(device);
      return device;
    },
  });
  Object.defineProperty(created, 'device', { get: () => devices.at(-1) });
  return created;
}

/** What VoiceProvider draws over the page: the phone button, toast, dialog and modal on the two actors. */
function CallUi({ handle }: { handle: VoiceHandle }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <CallButton device={handle.device} onClick={() => setOpen(true)} />
      <IncomingCallToast call={handle.call} />
      <CallDialog
        call={handle.call}
        device={handle.device}
        open={open}
        onOpenChange={setOpen}
        ownNumber={handle.info()?.phoneNumber}
      />
      <FeedbackModal call={handle.call} />
    </>
  );
}

beforeEach(() => {
  unconfigure = configureHttp({ getAccessToken: () => 'access-token', notifyError: () => {} });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  // Only Date: the UI stamps accept and hang-up with Date.now(); the test's waits keep real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});

afterEach(() => {
  cleanup();
  world?.handle.stop();
  world?.shadow.stop();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const user = () => userEvent.setup({ delay: null });
const settle = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
const until = (check: () => void) => waitFor(check, { timeout: 3000, interval: 5 });

const real = () => world.handle.call.getSnapshot();
const toast = () => screen.queryByRole('alertdialog', { name: 'Incoming Call' });
const feedbackModal = () => screen.queryByRole('dialog', { name: 'Call feedback' });
const phoneDialog = () => screen.getByRole('dialog', { name: 'Phone' });

async function startWorld() {
  world = createWorld();
  render(
    <ChakraProvider value={system}>
      <CallUi handle={world.handle} />
    </ChakraProvider>,
  );
  await until(() => expect(world.handle.device.getSnapshot().value).toBe('ready'));
  await user().click(screen.getByRole('button', { name: 'Phone' }));
  expect(phoneDialog()).toBeInTheDocument();
}

/**
 * A new call is about to start while the last call's create is still held: it fails first (logged,
 * nothing else), or the new call's create would wait behind it in the session's queue for ever.
 */
function failHeldCreate() {
  const held = world.heldCreates.splice(0);
  for (const h of held) h.release({ status: 500, data: { message: 'Database down', code: 'INTERNAL' } });
  world.creates.forEach((fate, index) => {
    if (fate === 'held' && index < world.creates.length - 1) world.creates[index] = 'failed';
  });
}

/** The current call's create answers with `callId` (the session then sends call.logCreated). */
async function answerCreate(callId: string) {
  await until(() => expect(world.heldCreates).toHaveLength(1));
  const [held] = world.heldCreates.splice(0);
  held?.release({ status: 201, data: { data: { callId } } });
  world.creates[world.creates.length - 1] = { id: callId };
  await until(() => expect(real().context.callId).toBe(callId));
}

async function answerFeedback(reply: FakeReply) {
  await until(() => expect(world.heldFeedback).toHaveLength(1));
  const [held] = world.heldFeedback.splice(0);
  const entry = world.log.findLast((e) => e.kind === 'feedback');
  if (entry?.kind === 'feedback') entry.answer = 'answered';
  held?.release(reply);
}

// ---------------------------------------------------------------------------------------------------
// What each state shows

/** The session agrees with the model, and the UI and the network show the session. */
async function common(node: CallSnapshot) {
  const expected = world.shadow.getSnapshot();
  expect(expected.value).toBe(node.value);
  visitedStates.add(String(expected.value));
  await until(() => expect(real().value).toBe(expected.value));
  expect(real().context).toEqual(expected.context);
  const { context } = expected;

  // The dialog: the calling status exactly as the SPEC writes it, the device Ready.
  await until(() => expect(screen.getByTestId('calling-status').textContent).toBe(context.statusText));
  // Why a call rang no one, under the status (which stays the SPEC's), exactly while the context says.
  if (context.notice) expect(screen.getByTestId('call-notice')).toHaveTextContent(context.notice);
  else expect(screen.queryByTestId('call-notice')).toBeNull();
  expect(screen.getByTestId('device-status').textContent).toBe(DEVICE_STATES.ready);
  expect(screen.getByRole('button', { name: 'Phone', hidden: true })).toHaveAttribute('data-device', 'ready');

  // The toast shows exactly while it rings, "From: {phone}".
  if (expected.value === 'ringing') {
    const card = toast() as HTMLElement;
    expect(card).not.toBeNull();
    expect(within(card).getByText(CALLING_STATUS.incoming)).toBeInTheDocument();
    expect(within(card).getByText(`From: ${context.phoneNumber}`)).toBeInTheDocument();
  } else {
    expect(toast()).toBeNull();
  }

  // The feedback modal is open exactly in feedback and submittingFeedback.
  if (context.feedback.open) {
    const modal = (await screen.findByRole('dialog', { name: 'Call feedback' })) as HTMLElement;
    expect(within(modal).getByText(`Call with ${context.phoneNumber}`)).toBeInTheDocument();
    const rating = context.feedback.rating;
    for (const stars of [1, 2, 3, 4, 5]) {
      const radio = within(modal).getByRole('radio', { name: stars === 1 ? '1 star' : `${stars} stars` });
      expect((radio as HTMLInputElement).checked).toBe(stars === rating);
    }
    expect(within(modal).getByRole('textbox', { name: 'Notes' })).toHaveValue(context.feedback.text);
    if (context.feedback.error)
      expect(within(modal).getByRole('alert')).toHaveTextContent(context.feedback.error);
    else expect(within(modal).queryByRole('alert')).toBeNull();
  } else {
    await until(() => expect(feedbackModal()).toBeNull());
  }

  // The network: generateCall with the direction, every updateHistory body, in order.
  await until(() =>
    expect(world.requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual(
      expectedRequests(world),
    ),
  );
}

const dialPad = () => screen.queryByRole('group', { name: 'Dial pad' });
const hangUpButton = () => screen.queryByRole('button', { name: 'Hang up' });
const muteButton = () => screen.queryByRole('button', { name: 'Mute' });
const dismissButton = () => screen.queryByRole('button', { name: 'Dismiss' });

const stateChecks: Record<CallState, (snapshot: CallSnapshot) => Promise<void>> = {
  idle: async (snapshot) => {
    await common(snapshot);
    expect(screen.getByTestId('calling-status').textContent).toBe(CALLING_STATUS.idle);
    expect(dialPad()).not.toBeNull();
    expect([hangUpButton(), dismissButton()]).toEqual([null, null]);
  },
  ringing: async (snapshot) => {
    await common(snapshot);
    expect(screen.getByTestId('calling-status').textContent).toBe(CALLING_STATUS.incoming);
    const card = within(toast() as HTMLElement);
    for (const name of ['Accept', 'Reject', 'Ignore'])
      expect(card.getByRole('button', { name })).toBeEnabled();
    // The line is taken: no dial pad, and a second call was rejected by the session (rejectBusy).
    expect(dialPad()).toBeNull();
  },
  connecting: async (snapshot) => {
    await common(snapshot);
    expect(screen.getByTestId('calling-status').textContent).toBe(CALLING_STATUS.connecting);
    expect(hangUpButton()).toBeEnabled();
    expect([muteButton(), dialPad(), screen.queryByTestId('call-timer')]).toEqual([null, null, null]);
    expect(world.device.actions.filter((a) => a.startsWith('dial'))).toContain('dial +919000000005');
  },
  active: async (snapshot) => {
    await common(snapshot);
    const { muted, statusText } = world.shadow.getSnapshot().context;
    expect([
      CALLING_STATUS.onCall,
      CALLING_STATUS.connected,
      CALLING_STATUS.muted,
      CALLING_STATUS.reconnected,
    ]).toContain(statusText);
    // "Call is Muted" only while muted (after a reconnect a muted call reads "Call Reconnected.").
    if (statusText === CALLING_STATUS.muted) expect(muted).toBe(true);
    expect(muteButton()).toHaveAttribute('aria-pressed', String(muted));
    expect(muteButton()).toBeEnabled();
    expect(hangUpButton()).toBeEnabled();
    expect(screen.getByTestId('call-timer')).toBeInTheDocument();
  },
  reconnecting: async (snapshot) => {
    await common(snapshot);
    expect(screen.getByTestId('calling-status').textContent).toBe(CALLING_STATUS.reconnecting);
    expect(muteButton()).toBeDisabled();
    expect(hangUpButton()).toBeEnabled();
  },
  ended: async (snapshot) => {
    await common(snapshot);
    expect([
      CALLING_STATUS.ignored,
      CALLING_STATUS.cancelled,
      CALLING_STATUS.rejected,
      CALLING_STATUS.disconnected,
      CALLING_STATUS.error,
    ]).toContain(screen.getByTestId('calling-status').textContent);
    expect(dismissButton()).toBeEnabled();
    expect(dialPad()).not.toBeNull();
    expect(feedbackModal()).toBeNull();
  },
  feedback: async (snapshot) => {
    await common(snapshot);
    expect([CALLING_STATUS.disconnected, CALLING_STATUS.rejected]).toContain(
      screen.getByTestId('calling-status').textContent,
    );
    const modal = within(feedbackModal() as HTMLElement);
    expect(modal.getByRole('button', { name: 'Skip' })).toBeEnabled();
    const submit = modal.getByRole('button', { name: 'Submit' });
    expect(submit.hasAttribute('disabled')).toBe(world.shadow.getSnapshot().context.feedback.rating === null);
    expect([hangUpButton(), dialPad()]).toEqual([null, null]);
  },
  submittingFeedback: async (snapshot) => {
    await common(snapshot);
    const modal = within(feedbackModal() as HTMLElement);
    expect(modal.getByRole('button', { name: 'Submitting' })).toHaveAttribute('data-loading');
    expect(modal.getByRole('button', { name: 'Skip' })).toBeDisabled();
  },
};

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real system

type Executor<T extends CallEvent['type']> = (
  event: Extract<CallEvent, { type: T }>,
  before: CallSnapshot,
) => Promise<void>;

const RINGING_OR_CONNECTED = new Set(['ringing', 'connecting', 'active', 'reconnecting']);

/** No real source in this state: sent to the session's actor as the app never would. */
async function sendDirectly(event: CallEvent) {
  stepCounts.direct += 1;
  act(() => world.handle.call.send(event));
  await settle();
}

function at(time: number) {
  world.clock = time;
  vi.setSystemTime(time);
}

/** accept/reject/ignore: the toast's buttons while it rings; otherwise no toast, so sent directly. */
function answer<T extends 'call.accept' | 'call.reject' | 'call.ignore'>(
  name: 'Accept' | 'Reject' | 'Ignore',
  action: string,
): Executor<T> {
  return async (event, before) => {
    if (before.value !== 'ringing') {
      // No toast outside ringing: the UI cannot send it; SPEC §8 says it is only logged.
      await sendDirectly(event);
      expect(world.errors).toHaveBeenCalledWith(NO_ACTIVE_INCOMING);
      return;
    }
    if ('at' in event) at(event.at);
    const ringing = world.current;
    await user().click(within(toast() as HTMLElement).getByRole('button', { name }));
    expect(ringing?.actions.at(-1)).toBe(action);
  };
}

const eventExecutors: { [T in CallEvent['type']]: Executor<T> } = {
  // The provider rings this device.
  'call.incoming': async (event, before) => {
    const free = before.value === 'idle' || before.value === 'ended';
    if (free) failHeldCreate();
    const ringing = world.device.ring(event.callSid, event.from);
    if (free) {
      world.current = ringing;
    } else {
      // One call at a time: the session rejects the second one (the caller hears busy).
      expect(ringing.actions).toEqual(['reject']);
    }
    await settle();
  },
  // generateCall answers.
  'call.logCreated': async (event) => {
    const fate = world.creates.at(-1);
    if (fate && typeof fate === 'object') {
      // The create already answered (the feedback's answer needed it, see the header): it cannot
      // answer twice, so its event is sent again directly; the machine stores the same id.
      await sendDirectly(event);
      return;
    }
    await answerCreate(event.callId);
  },
  'call.accept': answer('Accept', 'accept'),
  'call.reject': answer('Reject', 'reject'),
  'call.ignore': answer('Ignore', 'ignore'),
  // The other side ends (or never takes) the call: the provider's call reports it.
  'call.remoteEnded': async (event) => {
    at(event.at);
    act(() => world.current?.events.emit('remoteEnded', event.reason));
    world.current = null;
    await settle();
  },
  // The dial pad: the number typed, Call clicked. Not ready: the device went offline for the click.
  'call.dial': async (event, before) => {
    if (before.value !== 'idle' && before.value !== 'ended') {
      // The dial pad is not shown while the line is taken: sent directly; SPEC §8, only logged.
      await sendDirectly(event);
      expect(world.errors).toHaveBeenCalledWith(UNABLE_TO_MAKE_CALL);
      return;
    }
    const device = world.device;
    if (!event.deviceReady) {
      act(() => device.events.emit('offline'));
      await until(() => expect(screen.getByTestId('device-status').textContent).toBe(DEVICE_STATES.offline));
    }
    const dialled = device.dialled.length;
    if (event.deviceReady) failHeldCreate();
    const input = screen.getByRole('textbox', { name: 'Phone number' });
    await user().clear(input);
    await user().type(input, event.number);
    await user().click(screen.getByRole('button', { name: 'Call' }));
    if (event.deviceReady) {
      await until(() => expect(device.dialled).toHaveLength(dialled + 1));
      world.current = device.dialled.at(-1) ?? null;
    } else {
      expect(device.dialled).toHaveLength(dialled);
      expect(world.errors).toHaveBeenCalledWith(UNABLE_TO_MAKE_CALL);
      expect(screen.getByText('Calls can be made once the device is ready.')).toBeInTheDocument();
      // The network is back: the provider registers again on its own.
      act(() => device.events.emit('registered'));
    }
    await settle();
  },
  'call.answered': async (event) => {
    at(event.at);
    act(() => world.current?.events.emit('answered', event.callSid ?? ''));
    await settle();
  },
  'call.hangup': async (event) => {
    at(event.at);
    const call = world.current;
    await user().click(hangUpButton() as HTMLElement);
    expect(call?.actions.at(-1)).toBe('hangup');
    world.current = null;
  },
  'call.error': async (event, before) => {
    if (!RINGING_OR_CONNECTED.has(String(before.value))) {
      // Outside a call the session follows no provider call whose error could reach the machine.
      await sendDirectly(event);
      expect(world.errors).toHaveBeenCalledWith(event.message);
      return;
    }
    at(event.at);
    act(() => world.current?.events.emit('error', event.message));
    world.current = null;
    await settle();
    expect(world.errors).toHaveBeenCalledWith(event.message);
  },
  'call.mute': async () => {
    const call = world.current;
    await user().click(muteButton() as HTMLElement);
    expect(call?.actions.at(-1)).toBe('mute');
  },
  'call.unmute': async () => {
    const call = world.current;
    await user().click(muteButton() as HTMLElement);
    expect(call?.actions.at(-1)).toBe('unmute');
  },
  'call.reconnecting': async () => {
    act(() => world.current?.events.emit('reconnecting'));
    await settle();
  },
  'call.reconnected': async () => {
    act(() => world.current?.events.emit('reconnected'));
    await settle();
  },
  'call.dismiss': async () => {
    await user().click(dismissButton() as HTMLElement);
  },
  'feedback.rate': async (event) => {
    const modal = within(feedbackModal() as HTMLElement);
    await user().click(
      modal.getByRole('radio', { name: event.rating === 1 ? '1 star' : `${event.rating} stars` }),
    );
  },
  'feedback.change': async (event) => {
    const notes = within(feedbackModal() as HTMLElement).getByRole('textbox', { name: 'Notes' });
    await user().clear(notes);
    await user().click(notes);
    await user().paste(event.text);
  },
  'feedback.submit': async () => {
    await user().click(within(feedbackModal() as HTMLElement).getByRole('button', { name: 'Submit' }));
  },
  'feedback.skip': async () => {
    await user().click(within(feedbackModal() as HTMLElement).getByRole('button', { name: 'Skip' }));
  },
  // updateHistory answers (after the create, when the machine had no call id yet).
  'feedback.submitted': async (_event, before) => {
    if (before.context.callId === null) await answerCreate(LOG_ID);
    await answerFeedback({ status: 200, data: { data: {} } });
    await settle();
  },
  'feedback.failed': async (event, before) => {
    if (before.context.callId === null) await answerCreate(LOG_ID);
    await answerFeedback({ status: 404, data: { message: event.message, code: 'NOT_FOUND' } });
    await settle();
  },
};

const testParams = {
  states: stateChecks,
  events: Object.fromEntries(
    Object.entries(eventExecutors).map(([type, exec]) => [
      type,
      async (step: { event: { type: string } }) => {
        const event = step.event as CallEvent;
        const before = world.shadow.getSnapshot();
        const id = takenTransitionId(callMachine, before, event);
        if (id) executedTransitions.add(id);
        // The feedback's answer needs the log: the create answers first (see the header).
        if (
          (event.type === 'feedback.submitted' || event.type === 'feedback.failed') &&
          !before.context.callId
        )
          world.shadow.send({ type: 'call.logCreated', callId: LOG_ID });
        world.shadow.send(event);
        stepCounts.real += 1;
        await (exec as (event: CallEvent, before: CallSnapshot) => Promise<void>)(event, before);
      },
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------------

type ModelPath = SharedModelPath<CallSnapshot, CallEvent>;

function describeEvent(event: CallEvent): string {
  const name = event.type.replace(/^call\./, '');
  if (event.type === 'call.remoteEnded') return `${name}(${event.reason})`;
  if (event.type === 'call.dial') return `${name}(${event.deviceReady ? 'ready' : 'not ready'})`;
  return name;
}

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event): event is CallEvent => event.type !== 'xstate.init')
    .map(describeEvent);
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

const takenBy = (from: CallSnapshot, event: CallEvent) => takenTransitionId(callMachine, from, event);
const transitionsOf = (path: ModelPath): string[] => pathTransitions(path, takenBy);

const shortestPaths = model.getShortestPaths() as ModelPath[];

const extraPaths = completionPaths<CallSnapshot, CallEvent>(
  model,
  takenBy,
  new Set(shortestPaths.flatMap(transitionsOf)),
);

async function runPath(path: ModelPath) {
  await startWorld();
  await model.testPath(path as Parameters<typeof model.testPath>[0], testParams);
}

describe('call statechart × real voice session × rendered call UI', () => {
  it('draws its paths from the real machine', () => {
    // The counts of src/machines/call.machine.test.ts: the same machine and sample events.
    expect(shortestPaths).toHaveLength(165);
    console.info(`call model: ${shortestPaths.length} shortest paths, ${extraPaths.length} completion paths`);
  });

  const groups: [string, ModelPath[]][] = [
    ['shortest paths', shortestPaths],
    ['transitions the shortest paths miss', extraPaths],
  ];
  for (const [name, paths] of groups) {
    if (paths.length === 0) continue;
    describe(`${name} (${paths.length})`, () => {
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        await runPath(path);
      });
    });
  }

  it('the executed paths reach every state and take every transition of the machine', () => {
    console.info(
      `${'call'} model: ${stepCounts.real - stepCounts.direct} steps through the real edges, ${stepCounts.direct} sent directly`,
    );
    expectFullCoverage(callMachine, allTransitionIds(callMachine), visitedStates, executedTransitions);
  });
});
