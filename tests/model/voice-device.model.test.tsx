// Model-based test of the voice-device statechart (SPEC §4 "Voice device states", §8 "Device errors set
// the device state to Disconnected"; ARCHITECTURE.md "Statecharts"): every path of `getShortestPaths()`
// of the REAL machine, plus one path per transition they miss, each run against the REAL voice session
// (src/services/voice/voice-session.ts, `startVoice`) and the RENDERED call UI (the Phone button and the
// call dialog, which show the device's status). Fakes only at the edges: the voice token fetch (held until
// the path says it answered), the voice provider (FakeVoiceDevice, whose registration is held until the
// path says `registered`) and the browser's online/offline signal.
//
// Each event happens the way it really arrives: the token fetch answering or failing, the provider's
// events, the window's `online`/`offline`. The session never sends some of the machine's events, or
// cannot in some states; those are sent to the session's device actor directly, marked so below:
// - `device.setup` after the first: the session sets up when a token fetch answers (the first, or a
//   retry after a failure, which runs on a timer of seconds); a path's later setup is sent directly;
// - `device.destroy`: the session's only destroy is `stop()`, which stops the actors with it;
// - a provider event while the session has no provider (its token fetch failed, or it was destroyed).
// The graph is the machine's own (value and context), so a path's snapshots are exactly what its events
// make; a shadow of the pure machine replays them, and the session's actor must equal it at every step.

import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { CALLING_STATUS, DEVICE_STATES, type VoiceToken } from '../../contracts/calls';
import { allTransitionIds, takenTransitionId } from '../../src/machines/testing/transition-coverage';
import {
  type VoiceDeviceEvent,
  type VoiceDeviceStatus,
  voiceDeviceMachine,
} from '../../src/machines/voice-device.machine';
import { FAKE_VOICE_TOKEN, FakeVoiceDevice } from '../../src/services/voice/testing-fakes';
import { startVoice, type VoiceHandle } from '../../src/services/voice/voice-session';
import { CallButton } from '../../src/ui/call/CallButton';
import { CallDialog } from '../../src/ui/call/CallDialog';
import { system } from '../../src/ui/theme';
import {
  completionPaths,
  expectFullCoverage,
  pathTransitions,
  type ModelPath as SharedModelPath,
} from './model-paths';

type DeviceSnapshot = SnapshotFrom<typeof voiceDeviceMachine>;

// The sample events of src/machines/voice-device.machine.test.ts (59 nodes, 43 shortest paths).
const DEVICE_ERROR = 'AccessTokenInvalid (20101)';
const NEW_TOKEN = 'new-token';
const SAMPLE_EVENTS: VoiceDeviceEvent[] = [
  { type: 'device.setup', hasToken: true },
  { type: 'device.setup', hasToken: false },
  { type: 'device.registered' },
  { type: 'device.unregistered' },
  { type: 'device.offline' },
  { type: 'device.online' },
  { type: 'device.error', message: DEVICE_ERROR },
  { type: 'device.tokenWillExpire' },
  { type: 'device.tokenRefreshed', token: NEW_TOKEN },
  { type: 'device.destroy' },
];

const model = createTestModel(voiceDeviceMachine, {
  events: SAMPLE_EVENTS,
  filterEvents: (snapshot, event) => snapshot.can(event),
});

interface TokenFetch {
  resolve: (token: VoiceToken) => void;
  reject: (error: Error) => void;
}

interface World {
  handle: VoiceHandle;
  devices: FakeVoiceDevice[];
  /** Token fetches the session started and the test has not answered yet (the first is setup's). */
  fetches: TokenFetch[];
  fetchCount: number;
  shadow: Actor<typeof voiceDeviceMachine>;
  errors: ReturnType<typeof vi.spyOn>;
}

let world: World;
const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();
/** Steps run through the real edges, and steps sent to the actor directly (no real source there). */
const stepCounts = { real: 0, direct: 0 };

function createWorld(): World {
  const created = {
    devices: [],
    fetches: [],
    fetchCount: 0,
    shadow: createActor(voiceDeviceMachine).start(),
    errors: vi.spyOn(console, 'error').mockImplementation(() => {}),
  } as Omit<World, 'handle'> as World;
  created.handle = startVoice({
    now: () => Date.UTC(2026, 10, 22, 9, 0, 0),
    fetchToken: () =>
      new Promise<VoiceToken>((resolve, reject) => {
        created.fetchCount += 1;
        created.fetches.push({ resolve, reject });
      }),
    providerFactory: (token) => {
      const device = new FakeVoiceDevice(token);
      // The registration answers when the path says so (`registered`, `error`), not on its own.
      device.registerResult = () => new Promise<void>(() => {});
      created.devices.push(device);
      return device;
    },
  });
  return created;
}

/** The provider the session holds: its last device, unless that was destroyed (or never made). */
function provider(): FakeVoiceDevice | null {
  const last = world.devices.at(-1);
  return last && !last.actions.includes('destroy') ? last : null;
}

function CallUi({ handle }: { handle: VoiceHandle }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <CallButton device={handle.device} onClick={() => setOpen(true)} />
      <CallDialog call={handle.call} device={handle.device} open={open} onOpenChange={setOpen} />
    </>
  );
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  world?.handle.stop();
  world?.shadow.stop();
  vi.restoreAllMocks();
});

const settle = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
const until = (check: () => void) => waitFor(check, { timeout: 3000, interval: 5 });
const real = () => world.handle.device.getSnapshot();
const readyHint = () => screen.queryByText('Calls can be made once the device is ready.');

async function startWorld() {
  world = createWorld();
  render(
    <ChakraProvider value={system}>
      <CallUi handle={world.handle} />
    </ChakraProvider>,
  );
  await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Phone' }));
}

// ---------------------------------------------------------------------------------------------------
// What each state shows

async function common(node: DeviceSnapshot) {
  const expected = world.shadow.getSnapshot();
  expect(expected.value).toBe(node.value);
  visitedStates.add(String(expected.value));
  await until(() => expect(real().value).toBe(expected.value));
  expect(real().context).toEqual(expected.context);
  const state = expected.value as VoiceDeviceStatus;
  const text = DEVICE_STATES[state];
  // The dialog and the header's phone button read the SPEC text of the state.
  await until(() => expect(screen.getByTestId('device-status').textContent).toBe(text));
  const button = screen.getByRole('button', { name: 'Phone' });
  expect(button).toHaveAttribute('data-device', state);
  expect(button).toHaveAccessibleDescription(text);
  // No call: the calling status stays "No Active Calls"; the dial pad says when it can call.
  expect(screen.getByTestId('calling-status').textContent).toBe(CALLING_STATUS.idle);
  expect(readyHint() === null).toBe(state === 'ready');
  // A token refresh under way is one fetch the session is waiting for (plus setup's, in notReady, and
  // the one that makes the device when registering started without one: see the registering check).
  const making = state === 'registering' && provider() === null && world.handle.info() === null;
  const waiting =
    (expected.context.refreshingToken ? 1 : 0) + (state === 'notReady' ? 1 : 0) + (making ? 1 : 0);
  expect(world.fetches).toHaveLength(waiting);
}

const stateChecks: Record<VoiceDeviceStatus, (snapshot: DeviceSnapshot) => Promise<void>> = {
  notReady: async (snapshot) => {
    await common(snapshot);
    expect(world.devices).toEqual([]);
    expect(world.handle.info()).toBeNull();
  },
  registering: async (snapshot) => {
    await common(snapshot);
    const device = provider();
    if (device) {
      // The session's device is registering.
      expect(device.actions.at(-1)).toBe('register');
    } else {
      // Reached without a device (the first token fetch failed, then `online`): the session fetches a
      // token to make one (the newest fetch it waits for); when it answers, the device is made and
      // registers. The path goes on from there (registered, error, … as it says).
      const made = world.devices.length;
      world.fetches.pop()?.resolve(FAKE_VOICE_TOKEN);
      await until(() => expect(world.devices).toHaveLength(made + 1));
      expect(provider()?.actions).toEqual(['register']);
      expect(real().value).toBe('registering');
    }
  },
  ready: async (snapshot) => {
    await common(snapshot);
    expect(snapshot.context.error).toBeNull();
  },
  offline: async (snapshot) => {
    await common(snapshot);
  },
  disconnected: async (snapshot) => {
    await common(snapshot);
    // SPEC §8: a device error is logged.
    const { error } = world.shadow.getSnapshot().context;
    if (error) expect(world.errors).toHaveBeenCalledWith(error);
  },
  destroyed: async (snapshot) => {
    await common(snapshot);
    expect(provider()).toBeNull();
    for (const device of world.devices) expect(device.actions).toContain('destroy');
  },
};

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real system

async function sendDirectly(event: VoiceDeviceEvent) {
  stepCounts.direct += 1;
  act(() => world.handle.device.send(event));
  await settle();
}

/** A provider event: the session's device emits it; without one, sent directly (see the header). */
async function fromProvider(event: VoiceDeviceEvent, emit: (device: FakeVoiceDevice) => void) {
  const device = provider();
  if (!device) return sendDirectly(event);
  act(() => emit(device));
  await settle();
}

type Executor<T extends VoiceDeviceEvent['type']> = (
  event: Extract<VoiceDeviceEvent, { type: T }>,
  before: DeviceSnapshot,
) => Promise<void>;

const eventExecutors: { [T in VoiceDeviceEvent['type']]: Executor<T> } = {
  'device.setup': async (event, before) => {
    if (before.value === 'notReady' && event.hasToken) {
      // The session's first token fetch answers: it sets up a device and registers it.
      const devices = world.devices.length;
      world.fetches.shift()?.resolve(FAKE_VOICE_TOKEN);
      await until(() => expect(world.devices).toHaveLength(devices + 1));
      return;
    }
    // Later setups come from the session's retry timer (seconds): sent directly (see the header).
    await sendDirectly(event);
  },
  'device.registered': (event) => fromProvider(event, (device) => device.events.emit('registered')),
  'device.unregistered': (event) => fromProvider(event, (device) => device.events.emit('unregistered')),
  // The browser's own network signal.
  'device.offline': async () => {
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    await settle();
  },
  'device.online': async () => {
    const device = provider();
    const registrations = device?.actions.filter((a) => a === 'register').length ?? 0;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    // The session registers its device again.
    if (device) expect(device.actions.filter((a) => a === 'register')).toHaveLength(registrations + 1);
  },
  'device.error': async (event, before) => {
    if (before.value === 'notReady') {
      // The session's first token fetch fails.
      world.fetches.shift()?.reject(new Error(event.message));
      await settle();
      return;
    }
    await fromProvider(event, (device) => device.events.emit('error', event.message));
  },
  'device.tokenWillExpire': async (event) => {
    const fetches = world.fetchCount;
    await fromProvider(event, (device) => device.events.emit('tokenWillExpire'));
    // The session asks for a new token.
    expect(world.fetchCount).toBe(fetches + 1);
  },
  // The new token arrives: the session hands it to its device.
  'device.tokenRefreshed': async (event) => {
    const device = provider();
    world.fetches.pop()?.resolve({ ...FAKE_VOICE_TOKEN, token: event.token });
    await settle();
    if (device) expect(device.tokens.at(-1)).toBe(event.token);
  },
  // The session's only destroy is stop() (see the header).
  'device.destroy': (event) => sendDirectly(event),
};

const testParams = {
  states: stateChecks,
  events: Object.fromEntries(
    Object.entries(eventExecutors).map(([type, exec]) => [
      type,
      async (step: { event: { type: string } }) => {
        const event = step.event as VoiceDeviceEvent;
        const before = world.shadow.getSnapshot();
        const id = takenTransitionId(voiceDeviceMachine, before, event);
        if (id) executedTransitions.add(id);
        world.shadow.send(event);
        stepCounts.real += 1;
        await (exec as (event: VoiceDeviceEvent, before: DeviceSnapshot) => Promise<void>)(event, before);
      },
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------------

type ModelPath = SharedModelPath<DeviceSnapshot, VoiceDeviceEvent>;

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event): event is VoiceDeviceEvent => event.type !== 'xstate.init')
    .map((event) => event.type.replace(/^device\./, ''));
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

const takenBy = (from: DeviceSnapshot, event: VoiceDeviceEvent) =>
  takenTransitionId(voiceDeviceMachine, from, event);
const transitionsOf = (path: ModelPath): string[] => pathTransitions(path, takenBy);

const shortestPaths = model.getShortestPaths() as ModelPath[];

const extraPaths = completionPaths<DeviceSnapshot, VoiceDeviceEvent>(
  model,
  takenBy,
  new Set(shortestPaths.flatMap(transitionsOf)),
);

async function runPath(path: ModelPath) {
  await startWorld();
  await model.testPath(path as Parameters<typeof model.testPath>[0], testParams);
}

describe('voice-device statechart × real voice session × rendered call UI', () => {
  it('draws its paths from the real machine', () => {
    // The counts of src/machines/voice-device.machine.test.ts: the same machine and sample events.
    expect(shortestPaths).toHaveLength(43);
    console.info(
      `voice-device model: ${shortestPaths.length} shortest paths, ${extraPaths.length} completion paths`,
    );
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
      `${'voice-device'} model: ${stepCounts.real - stepCounts.direct} steps through the real edges, ${stepCounts.direct} sent directly`,
    );
    expectFullCoverage(
      voiceDeviceMachine,
      allTransitionIds(voiceDeviceMachine),
      visitedStates,
      executedTransitions,
    );
  });
});
