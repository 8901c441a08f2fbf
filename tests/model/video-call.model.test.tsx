// Model-based test of the video-call statechart (issue 13; ARCHITECTURE.md "Statecharts"): the shortest
// paths of the REAL machine's graph, plus one path per transition they miss, each run against the REAL
// session (src/services/video-call/video-call-session.ts, `startVideoCalls`) and the RENDERED views (the
// "Video call" buttons, the ringing card, the call window). Fakes only at the edges: the signalling
// socket (FakeSocket: what the server sends and its acknowledgements), the peer (FakePeer: what
// simple-peer reports), the camera, microphone and screen (FakeMedia) and the clock (FakeClock, the
// session's timers and `now`).
//
// Each event of a path happens the way it really arrives: the user's clicks, the server's events and
// answers, the peer's reports, the devices' answers. A shadow of the pure machine is fed the path's
// events; the session's actor must equal it after every step, and the screen must show what the
// states map says for the state.
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { VIDEO_CALL_EVENTS } from '../../contracts/video-calls';
import type { VideoSignal } from '../../contracts/video-signal';
import { allTransitionIds, takenTransitionId } from '../../src/machines/testing/transition-coverage';
import {
  DECLINED_MESSAGE,
  NO_ANSWER_MESSAGE,
  type VideoCallEvent,
  type VideoCallState,
  type VideoPeer,
  videoCallMachine,
} from '../../src/machines/video-call.machine';
import { CAMERA_REFUSED_MESSAGE, MICROPHONE_REFUSED_MESSAGE } from '../../src/services/video-call/media';
import type { PeerHandlers, VideoPeerLike } from '../../src/services/video-call/peer';
import {
  CONNECT_FAILED_MESSAGE,
  startVideoCalls,
  type VideoCallHandle,
} from '../../src/services/video-call/video-call-session';
import { system } from '../../src/ui/theme';
import { VideoCallContext } from '../../src/ui/video-call/context';
import { VideoCallButton } from '../../src/ui/video-call/VideoCallButton';
import { VideoCallLayer } from '../../src/ui/video-call/VideoCallLayer';
import {
  completionPaths,
  expectFullCoverage,
  pathTransitions,
  type ModelPath as SharedModelPath,
  serializedNodeKey,
} from './model-paths';

type Snapshot = SnapshotFrom<typeof videoCallMachine>;
type ModelPath = SharedModelPath<Snapshot, VideoCallEvent>;

// SELF sits between the two peers: calling LOWER while LOWER calls makes SELF the impolite side of the
// glare, calling HIGHER while HIGHER calls the polite one.
const SELF = '00000000-0000-4000-8000-000000000002';
const LOWER: VideoPeer = { id: '00000000-0000-4000-8000-000000000001', name: 'Asha Admin', avatarUrl: null };
const HIGHER: VideoPeer = { id: '00000000-0000-4000-8000-000000000003', name: 'Sam Staff', avatarUrl: null };
const OUR_CALL = '11111111-1111-4111-8111-111111111111';
const FROM_LOWER = '22222222-2222-4222-8222-222222222222';
const FROM_HIGHER = '33333333-3333-4333-8333-333333333333';
const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const OFFER: VideoSignal = { type: 'offer', sdp: 'v=0 offer' };
const ANSWER: VideoSignal = { type: 'answer', sdp: 'v=0 answer' };
const BUSY_TEXT = 'Sam Staff is in another call.';

const SAMPLE_EVENTS: VideoCallEvent[] = [
  { type: 'videoCall.start', callId: OUR_CALL, peer: HIGHER, audioOnly: false },
  { type: 'videoCall.start', callId: OUR_CALL, peer: LOWER, audioOnly: false },
  { type: 'videoCall.incoming', callId: FROM_LOWER, peer: LOWER },
  { type: 'videoCall.incoming', callId: FROM_HIGHER, peer: HIGHER },
  { type: 'videoCall.mediaRefused', message: CAMERA_REFUSED_MESSAGE },
  { type: 'videoCall.mediaRefused', message: MICROPHONE_REFUSED_MESSAGE },
  { type: 'videoCall.audioOnly' },
  { type: 'videoCall.ringing' },
  { type: 'videoCall.refused', reason: 'busy', message: BUSY_TEXT },
  { type: 'videoCall.refused', reason: 'unavailable', message: 'Sam Staff is not online right now.' },
  { type: 'videoCall.refused', reason: 'refused', message: 'There is no one to call with this id.' },
  { type: 'videoCall.accept' },
  { type: 'videoCall.decline' },
  { type: 'videoCall.answered' },
  { type: 'videoCall.accepted' },
  { type: 'videoCall.declined', message: DECLINED_MESSAGE(HIGHER.name) },
  { type: 'videoCall.declined', message: DECLINED_MESSAGE(LOWER.name) },
  { type: 'videoCall.cancelled', reason: 'answeredElsewhere' },
  {
    type: 'videoCall.remoteEnded',
    reason: 'noAnswer',
    at: T0 + 50_000,
    message: NO_ANSWER_MESSAGE(HIGHER.name),
  },
  {
    type: 'videoCall.remoteEnded',
    reason: 'noAnswer',
    at: T0 + 50_000,
    message: NO_ANSWER_MESSAGE(LOWER.name),
  },
  { type: 'videoCall.remoteEnded', reason: 'hangup', at: T0 + 65_000 },
  { type: 'videoCall.connected', at: T0 },
  { type: 'videoCall.reconnecting' },
  { type: 'videoCall.reconnected' },
  { type: 'videoCall.quality', quality: 'poor' },
  { type: 'videoCall.quality', quality: 'good' },
  { type: 'videoCall.toggleMute' },
  { type: 'videoCall.toggleCamera' },
  { type: 'videoCall.startShare' },
  { type: 'videoCall.shareStarted' },
  { type: 'videoCall.stopShare' },
  { type: 'videoCall.shareStopped' },
  { type: 'videoCall.hangup', at: T0 + 65_000 },
  { type: 'videoCall.failed', message: CONNECT_FAILED_MESSAGE, at: T0 + 10_000 },
  { type: 'videoCall.dismiss' },
];

/** Whether the real world can produce the event in this snapshot (and with these values). */
function possible(snapshot: Snapshot, event: VideoCallEvent): boolean {
  // `can` says false for a transition that changes nothing (the impolite side ignoring the glare ring),
  // which still happens: the machine takes it.
  if (takenTransitionId(videoCallMachine, snapshot, event) === null) return false;
  const { context } = snapshot;
  const value = snapshot.value as VideoCallState;
  switch (event.type) {
    case 'videoCall.mediaRefused':
      // The adapter's words depend on what was asked for.
      return event.message === (context.audioOnly ? MICROPHONE_REFUSED_MESSAGE : CAMERA_REFUSED_MESSAGE);
    case 'videoCall.declined':
      return event.message === DECLINED_MESSAGE(context.peer?.name ?? '');
    case 'videoCall.remoteEnded':
      if (event.reason === 'noAnswer')
        return value === 'outgoing' && event.message === NO_ANSWER_MESSAGE(context.peer?.name ?? '');
      return true;
    case 'videoCall.refused':
      // The busy text names the callee.
      return event.reason !== 'busy' || context.peer?.id === HIGHER.id;
    case 'videoCall.quality':
      return event.quality !== context.quality; // the session reports changes only
    case 'videoCall.incoming':
      // One ring per caller: a caller whose call already rings here does not ring again.
      return context.callId !== (event.peer.id === LOWER.id ? FROM_LOWER : FROM_HIGHER);
    case 'videoCall.toggleCamera':
      return !context.sharing; // the camera button keeps its place while the screen is shared
    default:
      return true;
  }
}

const valueKey = (snapshot: Snapshot) =>
  JSON.stringify([
    snapshot.value,
    snapshot.context.direction,
    snapshot.context.peer?.id ?? null,
    snapshot.context.audioOnly,
    snapshot.context.sharing,
    snapshot.context.quality,
  ]);

function serializeNode(snapshot: Snapshot, event?: VideoCallEvent, previous?: Snapshot): string {
  return previous && event && valueKey(previous) === valueKey(snapshot)
    ? `${valueKey(snapshot)}~${event.type}`
    : valueKey(snapshot);
}

const model = createTestModel(videoCallMachine, {
  input: { selfId: SELF },
  events: SAMPLE_EVENTS,
  filterEvents: (snapshot, event) => possible(snapshot, event),
  serializeState: serializeNode,
});

// ---------------------------------------------------------------------------------------------------
// The edges: clock, socket, media, peer

class FakeClock {
  now = T0;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private next = 1;
  set = (callback: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  };
  clear = (id: unknown) => {
    this.timers.delete(id as number);
  };
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = Math.max(this.now, due[1].at);
      due[1].callback();
    }
    this.now = until;
  }
}

interface Emitted {
  event: string;
  payload: Record<string, unknown>;
  ack: (answer: unknown) => void;
  answered: boolean;
}

/** Answered at once with ok: the events whose answers change nothing the model sees. */
const QUIET = new Set<string>([
  VIDEO_CALL_EVENTS.decline,
  VIDEO_CALL_EVENTS.hangup,
  VIDEO_CALL_EVENTS.signal,
  VIDEO_CALL_EVENTS.connected,
  VIDEO_CALL_EVENTS.rejoin,
]);

class FakeSocket {
  connected = true;
  emitted: Emitted[] = [];
  private handlers = new Map<string, Set<(payload: unknown) => void>>();
  on(event: string, handler: (payload: unknown) => void) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
    return this;
  }
  off(event: string, handler: (payload: unknown) => void) {
    this.handlers.get(event)?.delete(handler);
    return this;
  }
  emit(event: string, payload: Record<string, unknown>, ack: (answer: unknown) => void) {
    const entry: Emitted = { event, payload, ack, answered: false };
    this.emitted.push(entry);
    if (QUIET.has(event)) {
      entry.answered = true;
      ack({ ok: true });
    }
    return this;
  }
  deliver(event: string, payload: unknown) {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }
  /** Answers the oldest unanswered `event`. */
  answer(event: string, answer: unknown) {
    const entry = this.emitted.find((candidate) => candidate.event === event && !candidate.answered);
    if (!entry) throw new Error(`no ${event} waits for an answer`);
    entry.answered = true;
    entry.ack(answer);
  }
  sent(event: string) {
    return this.emitted.filter((entry) => entry.event === event).map((entry) => entry.payload);
  }
}

class FakeTrack {
  enabled = true;
  stopped = false;
  private listeners = new Set<() => void>();
  constructor(
    readonly kind: 'audio' | 'video',
    readonly label: string,
  ) {}
  stop() {
    this.stopped = true;
  }
  addEventListener(_type: 'ended', listener: () => void) {
    this.listeners.add(listener);
  }
  end() {
    for (const listener of this.listeners) listener();
  }
}

class FakeStream {
  private tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
  addTrack(track: FakeTrack) {
    this.tracks.push(track);
  }
  removeTrack(track: FakeTrack) {
    this.tracks = this.tracks.filter((candidate) => candidate !== track);
  }
}

interface Deferred<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

class FakeMedia {
  userMedia: (Deferred<MediaStream> & { constraints: MediaStreamConstraints })[] = [];
  display: Deferred<MediaStream>[] = [];
  streams: FakeStream[] = [];
  screens: FakeTrack[] = [];
  getUserMedia = (constraints: MediaStreamConstraints) =>
    new Promise<MediaStream>((resolve, reject) => this.userMedia.push({ resolve, reject, constraints }));
  getDisplayMedia = () =>
    new Promise<MediaStream>((resolve, reject) => this.display.push({ resolve, reject }));
  enumerateDevices = async () => [] as MediaDeviceInfo[];
  /** Answers the oldest camera/microphone request with what it asked for. */
  grant() {
    const request = this.userMedia.shift();
    if (!request) throw new Error('no camera or microphone request is waiting');
    const tracks = [new FakeTrack('audio', 'fake microphone')];
    if (request.constraints.video) tracks.push(new FakeTrack('video', 'fake camera'));
    const stream = new FakeStream(tracks);
    this.streams.push(stream);
    request.resolve(stream as unknown as MediaStream);
  }
  refuse() {
    const request = this.userMedia.shift();
    if (!request) throw new Error('no camera or microphone request is waiting');
    request.reject(new DOMException('Permission denied', 'NotAllowedError'));
  }
  shareScreen() {
    const request = this.display.shift();
    if (!request) throw new Error('no screen request is waiting');
    const track = new FakeTrack('video', 'screen');
    this.screens.push(track);
    request.resolve(new FakeStream([track]) as unknown as MediaStream);
  }
}

class FakePeer implements VideoPeerLike {
  signals: VideoSignal[] = [];
  sent: string[] = [];
  replaced: [string, string][] = [];
  restarts = 0;
  destroyed = false;
  quality: 'good' | 'poor' = 'good';
  constructor(
    readonly initiator: boolean,
    readonly handlers: PeerHandlers,
  ) {}
  signal(signal: VideoSignal) {
    this.signals.push(signal);
  }
  send(text: string) {
    this.sent.push(text);
  }
  replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack) {
    this.replaced.push([oldTrack.label, newTrack.label]);
  }
  restartIce() {
    this.restarts++;
  }
  async getStats() {
    const rtt = this.quality === 'poor' ? 0.45 : 0.02;
    const stats = [
      { type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: rtt },
    ];
    return {
      forEach: (callback: (stat: unknown) => void) => stats.forEach(callback),
    } as unknown as RTCStatsReport;
  }
  destroy() {
    this.destroyed = true;
  }
}

// ---------------------------------------------------------------------------------------------------
// The world

interface World {
  handle: VideoCallHandle;
  clock: FakeClock;
  socket: FakeSocket;
  media: FakeMedia;
  peers: FakePeer[];
  reloads: number;
  remembered: unknown[];
  shadow: Actor<typeof videoCallMachine>;
}

let world: World;
const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();
const user = userEvent.setup();
const originalMediaStream = globalThis.MediaStream;
const originalPlay = HTMLMediaElement.prototype.play;

beforeAll(() => {
  // jsdom has no MediaStream and no media playback.
  globalThis.MediaStream = FakeStream as unknown as typeof MediaStream;
  HTMLMediaElement.prototype.play = () => Promise.resolve();
});
afterAll(() => {
  globalThis.MediaStream = originalMediaStream;
  HTMLMediaElement.prototype.play = originalPlay;
});

function createWorld(): World {
  const clock = new FakeClock();
  const socket = new FakeSocket();
  const media = new FakeMedia();
  const peers: FakePeer[] = [];
  const created: Partial<World> = { clock, socket, media, peers, reloads: 0, remembered: [] };
  const handle = startVideoCalls({
    selfId: SELF,
    socket: socket as never,
    media,
    peerFactory: async () => (options, handlers) => {
      const peer = new FakePeer(options.initiator, handlers);
      peers.push(peer);
      return peer;
    },
    iceServers: async () => [],
    now: () => clock.now,
    setTimer: clock.set,
    clearTimer: clock.clear,
    reload: () => {
      (created as World).reloads++;
    },
    remember: (summary) => (created as World).remembered.push(summary),
    newCallId: () => OUR_CALL,
  });
  created.handle = handle;
  created.shadow = createActor(videoCallMachine, { input: { selfId: SELF } }).start();
  return created as World;
}

function renderWorld() {
  render(
    <ChakraProvider value={system}>
      <VideoCallContext.Provider value={{ handle: world.handle }}>
        <VideoCallButton peer={HIGHER} />
        <VideoCallButton peer={LOWER} />
        <VideoCallLayer handle={world.handle} />
      </VideoCallContext.Provider>
    </ChakraProvider>,
  );
}

/** Lets promises (the peer's loading, acknowledgements, media answers) run their course. */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

const lastPeer = () => world.peers.at(-1) as FakePeer;
const real = () => world.handle.actor.getSnapshot();
const shadowContext = () => world.shadow.getSnapshot().context;

/** Camera and microphone given, the peer created: the state the adapter waits in for the peer's signal. */
async function mediaAndPeer() {
  const before = world.peers.length;
  await act(async () => world.media.grant());
  await settle();
  expect(world.peers.length, 'a peer was created for the call').toBe(before + 1);
}

/** The caller's `callUser` goes out with the peer's offer; the server answers it. */
async function placeCall(answer: unknown) {
  await mediaAndPeer();
  await act(async () => lastPeer().handlers.onSignal(OFFER));
  await settle();
  const [sent] = world.socket.sent(VIDEO_CALL_EVENTS.callUser).slice(-1);
  expect(sent).toEqual({ callId: OUR_CALL, userToCall: shadowContext().peer?.id, signalData: OFFER });
  await act(async () => world.socket.answer(VIDEO_CALL_EVENTS.callUser, answer));
  await settle();
}

const callWindow = () => screen.getByTestId('video-call-window');
const ringingCard = () => screen.getByRole('alertdialog', { name: 'Incoming video call' });
const click = async (name: string | RegExp, within_?: HTMLElement) => {
  const scope = within_ ? within(within_) : screen;
  await user.click(scope.getByRole('button', { name }));
  await settle();
};

// ---------------------------------------------------------------------------------------------------
// How each event really happens

async function execute(event: VideoCallEvent) {
  const state = real().value as VideoCallState;
  const context = real().context;
  switch (event.type) {
    case 'videoCall.start':
      await click(`Video call ${event.peer.name}`);
      return;
    case 'videoCall.incoming':
      await act(async () =>
        world.socket.deliver(VIDEO_CALL_EVENTS.callUser, {
          callId: event.callId,
          userToCall: SELF,
          signalData: OFFER,
          from: event.peer.id,
          name: event.peer.name,
          avatarUrl: null,
        }),
      );
      await settle();
      return;
    case 'videoCall.mediaRefused':
      await act(async () => world.media.refuse());
      await settle();
      return;
    case 'videoCall.audioOnly':
      await click(context.direction === 'incoming' ? 'Accept with audio only' : 'Call with audio only');
      return;
    case 'videoCall.ringing':
      await placeCall({ ok: true });
      return;
    case 'videoCall.refused':
      await placeCall({ ok: false, reason: event.reason, message: event.message });
      return;
    case 'videoCall.accept':
      await click(/^Accept$/, ringingCard());
      return;
    case 'videoCall.decline':
      if (state === 'mediaRefused' && context.direction === 'outgoing') await click('Cancel', callWindow());
      else await click('Decline', ringingCard());
      return;
    case 'videoCall.answered': {
      await mediaAndPeer();
      // The ringing tab kept the caller's offer and feeds it to its peer.
      expect(lastPeer().initiator).toBe(false);
      expect(lastPeer().signals[0]).toEqual(OFFER);
      await act(async () => lastPeer().handlers.onSignal(ANSWER));
      await settle();
      expect(world.socket.sent(VIDEO_CALL_EVENTS.answerCall).at(-1)).toEqual({
        callId: context.callId,
        to: context.peer?.id,
        signal: ANSWER,
      });
      await act(async () => world.socket.answer(VIDEO_CALL_EVENTS.answerCall, { ok: true }));
      await settle();
      return;
    }
    case 'videoCall.accepted':
      await act(async () =>
        world.socket.deliver(VIDEO_CALL_EVENTS.callAccepted, { callId: OUR_CALL, signal: ANSWER }),
      );
      await settle();
      expect(lastPeer().signals.at(-1)).toEqual(ANSWER);
      return;
    case 'videoCall.declined':
      await act(async () => world.socket.deliver(VIDEO_CALL_EVENTS.callDeclined, { callId: context.callId }));
      await settle();
      return;
    case 'videoCall.cancelled':
      await act(async () =>
        world.socket.deliver(VIDEO_CALL_EVENTS.callCancelled, {
          callId: context.callId,
          reason: event.reason,
        }),
      );
      await settle();
      return;
    case 'videoCall.remoteEnded':
      world.clock.now = event.at;
      await act(async () =>
        world.socket.deliver(VIDEO_CALL_EVENTS.callEnded, { callId: context.callId, reason: event.reason }),
      );
      await settle();
      return;
    case 'videoCall.connected':
      world.clock.now = event.at;
      await act(async () => lastPeer().handlers.onConnect());
      await settle();
      return;
    case 'videoCall.reconnecting':
      await act(async () => lastPeer().handlers.onIceState('disconnected'));
      await settle();
      return;
    case 'videoCall.reconnected':
      await act(async () => lastPeer().handlers.onIceState('connected'));
      await settle();
      return;
    case 'videoCall.quality': {
      lastPeer().quality = event.quality === 'poor' ? 'poor' : 'good';
      const at = world.clock.now;
      await act(async () => world.clock.advance(2_000)); // the next getStats sample
      await settle();
      world.clock.now = at;
      return;
    }
    case 'videoCall.toggleMute':
      await click(context.muted ? 'Unmute microphone' : 'Mute microphone');
      return;
    case 'videoCall.toggleCamera':
      await click(context.cameraOff ? 'Turn camera on' : 'Turn camera off');
      return;
    case 'videoCall.startShare':
      await click('Share the screen');
      return;
    case 'videoCall.shareStarted':
      // The browser's picker answers (after a press of "Share the screen" if none is open).
      if (world.media.display.length === 0) await click('Share the screen');
      await act(async () => world.media.shareScreen());
      await settle();
      expect(lastPeer().replaced.at(-1)).toEqual(['fake camera', 'screen']);
      return;
    case 'videoCall.stopShare':
      await click('Stop sharing the screen');
      expect(lastPeer().replaced.at(-1)).toEqual(['screen', 'fake camera']);
      return;
    case 'videoCall.shareStopped':
      // The browser's own "Stop sharing" bar ends the screen's track.
      await act(async () => world.media.screens.at(-1)?.end());
      await settle();
      return;
    case 'videoCall.hangup':
      world.clock.now = event.at;
      await click(state === 'connecting' || state === 'inCall' ? 'Hang up' : 'Cancel', callWindow());
      return;
    case 'videoCall.failed':
      world.clock.now = event.at;
      // The peer breaks; before there is one, the camera comes first.
      if (world.media.userMedia.length > 0) await mediaAndPeer();
      await act(async () => lastPeer().handlers.onError('Connection failed.'));
      await settle();
      return;
    case 'videoCall.dismiss':
      await click('Close', callWindow());
      return;
  }
}

// ---------------------------------------------------------------------------------------------------
// What each state shows

const states: Record<VideoCallState, (snapshot: Snapshot) => void> = {
  idle: () => {
    expect(screen.queryByTestId('video-call-window')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('button', { name: `Video call ${HIGHER.name}` })).toBeEnabled();
  },
  preparing: () => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('Starting your camera…');
    expect(within(callWindow()).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(screen.getByRole('button', { name: `Video call ${HIGHER.name}` })).toBeDisabled();
  },
  outgoing: ({ context }) => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent(`Calling ${context.peer?.name}…`);
    expect(within(callWindow()).getByRole('button', { name: 'Cancel' })).toBeEnabled();
  },
  incoming: ({ context }) => {
    expect(ringingCard()).toHaveTextContent(`${context.peer?.name} is video calling you`);
    expect(within(ringingCard()).getByRole('button', { name: /^Accept$/ })).toBeEnabled();
    expect(within(ringingCard()).getByRole('button', { name: 'Decline' })).toBeEnabled();
  },
  mediaRefused: ({ context }) => {
    const where = context.direction === 'incoming' ? ringingCard() : callWindow();
    expect(within(where).getByRole('alert')).toHaveTextContent(context.message ?? '');
    expect(
      within(where).getByRole('button', {
        name: context.direction === 'incoming' ? 'Accept with audio only' : 'Call with audio only',
      }),
    ).toBeEnabled();
  },
  accepting: () => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('Connecting…');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  },
  connecting: ({ context }) => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('Connecting…');
    expect(
      screen.getByRole('button', { name: context.muted ? 'Unmute microphone' : 'Mute microphone' }),
    ).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Hang up' })).toBeEnabled();
  },
  inCall: ({ context }) => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent(context.peer?.name ?? '');
    expect(screen.getByTestId('video-call-timer')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: context.muted ? 'Unmute microphone' : 'Mute microphone' }),
    ).toHaveAttribute('aria-pressed', String(context.muted));
    expect(
      screen.getByRole('button', { name: context.cameraOff ? 'Turn camera on' : 'Turn camera off' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: context.sharing ? 'Stop sharing the screen' : 'Share the screen' }),
    ).toHaveProperty('disabled', context.audioOnly);
    if (context.reconnecting) expect(within(callWindow()).getByText('Reconnecting…')).toBeInTheDocument();
    else expect(within(callWindow()).queryByText('Reconnecting…')).toBeNull();
    if (context.quality === 'poor' && !context.reconnecting)
      expect(screen.getByTestId('video-call-quality')).toHaveTextContent('Poor connection');
    else expect(screen.queryByTestId('video-call-quality')).toBeNull();
    // The other side hears and sees what the buttons say.
    const told = JSON.parse(lastPeer().sent.at(-1) ?? '{}');
    expect(told).toEqual({ type: 'media', muted: context.muted, cameraOff: context.cameraOff });
  },
  ended: () => {
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('Call ended');
    // SPEC §4: the page reloads, having noted how the call ended.
    expect(world.reloads).toBe(1);
    expect(world.remembered).toHaveLength(1);
  },
  declined: ({ context }) => {
    expect(within(callWindow()).getByRole('alert')).toHaveTextContent(context.message ?? '');
    expect(world.reloads).toBe(0);
  },
  notAnswered: ({ context }) => {
    expect(within(callWindow()).getByRole('alert')).toHaveTextContent(context.message ?? '');
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('No answer');
  },
  busy: ({ context }) => {
    expect(within(callWindow()).getByRole('alert')).toHaveTextContent(context.message ?? '');
    expect(screen.getByTestId('video-call-status')).toHaveTextContent('Busy');
  },
  failed: ({ context }) => {
    expect(within(callWindow()).getByRole('alert')).toHaveTextContent(context.message ?? '');
    expect(within(callWindow()).getByRole('button', { name: 'Close' })).toBeEnabled();
  },
};

/** A call that never started holds no camera and no peer once it is over. */
function expectReleasedWhenIdle(snapshot: Snapshot) {
  const value = snapshot.value as VideoCallState;
  if (!['idle', 'declined', 'notAnswered', 'busy', 'failed', 'ended'].includes(value)) return;
  for (const stream of world.media.streams)
    for (const track of stream.getTracks()) expect(track.stopped).toBe(true);
  for (const peer of world.peers) expect(peer.destroyed).toBe(true);
}

// ---------------------------------------------------------------------------------------------------

const idsOf = (from: Snapshot, event: VideoCallEvent) => takenTransitionId(videoCallMachine, from, event);
const transitions = allTransitionIds(videoCallMachine);
const shortest = model.getShortestPaths() as unknown as ModelPath[];
const covered = new Set(shortest.flatMap((path) => pathTransitions(path, idsOf)));
const completing = completionPaths<Snapshot, VideoCallEvent>(
  model as never,
  (from, event) => idsOf(from, event),
  covered,
  serializedNodeKey(serializeNode),
);
const paths = [...shortest, ...completing];

describe('video-call statechart, against the real session and views', () => {
  afterEach(() => {
    world?.handle.stop();
    world?.shadow.stop();
    cleanup();
  });

  it.each(
    paths.map((path, index) => [index, path.steps.map((step) => step.event.type).join(' → '), path] as const),
  )('path %i: %s', async (_index, _name, path) => {
    world = createWorld();
    renderWorld();
    await settle();
    states.idle(real());
    for (const step of path.steps.slice(1)) {
      const event = step.event as VideoCallEvent;
      const from = world.shadow.getSnapshot();
      const id = takenTransitionId(videoCallMachine, from, event);
      if (id) executedTransitions.add(id);
      await execute(event);
      world.shadow.send(event);
      const expected = world.shadow.getSnapshot();
      expect(real().value, `after ${event.type}`).toEqual(expected.value);
      expect(real().context, `after ${event.type}`).toEqual(expected.context);
      visitedStates.add(String(expected.value));
      states[expected.value as VideoCallState](expected);
      expectReleasedWhenIdle(expected);
    }
  });

  it('reaches every state and takes every transition', () => {
    expectFullCoverage(videoCallMachine as never, transitions, visitedStates, executedTransitions);
  });
});
