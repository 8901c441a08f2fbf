// The voice device statechart on its own: its texts and decisions, with the effects recorded instead of
// performed. (The model-based test will run every path of it against the call UI with a fake device.)
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { DEVICE_STATES } from '../../contracts/calls';
import { allTransitionIds, transitionIdsOfGraph } from './testing/transition-coverage';
import {
  isDeviceReady,
  selectDeviceStatusText,
  type VoiceDeviceEvent,
  voiceDeviceMachine,
} from './voice-device.machine';

const SETUP: VoiceDeviceEvent = { type: 'device.setup', hasToken: true };
const SETUP_WITHOUT_TOKEN: VoiceDeviceEvent = { type: 'device.setup', hasToken: false };
const REGISTERED: VoiceDeviceEvent = { type: 'device.registered' };
const ERROR: VoiceDeviceEvent = { type: 'device.error', message: 'AccessTokenInvalid (20101)' };

function start() {
  const actions = {
    setupDevice: vi.fn(),
    registerDevice: vi.fn(),
    destroyDevice: vi.fn(),
    fetchToken: vi.fn(),
    updateToken: vi.fn(),
    logDeviceError: vi.fn(),
  };
  const actor = createActor(voiceDeviceMachine.provide({ actions })).start();
  const send = (...events: VoiceDeviceEvent[]) => {
    for (const event of events) actor.send(event);
  };
  const snapshot = () => actor.getSnapshot();
  const text = () => selectDeviceStatusText(snapshot());
  return { actor, send, snapshot, text, actions };
}

/** The params an action was called with (the second argument of an action implementation). */
const paramsOf = (action: ReturnType<typeof vi.fn>) => action.mock.calls.map((call) => call[1]);

describe('voice device statechart', () => {
  it('starts "Device isn\'t ready yet", not ready, and stays so when set up without a token', () => {
    const { send, snapshot, text, actions } = start();
    expect(snapshot().value).toBe('notReady');
    expect(text()).toBe("Device isn't ready yet");
    expect(snapshot().can(SETUP_WITHOUT_TOKEN)).toBe(false);
    send(SETUP_WITHOUT_TOKEN);
    expect(snapshot().value).toBe('notReady');
    expect(actions.setupDevice).not.toHaveBeenCalled();
    expect(isDeviceReady(snapshot())).toBe(false);
  });

  it('registers with a token and is "Ready to make or receive calls" once registered', () => {
    const { send, snapshot, text, actions } = start();
    send(SETUP);
    expect(snapshot().value).toBe('registering');
    expect(text()).toBe('Registering Device');
    expect(actions.setupDevice).toHaveBeenCalledTimes(1);
    expect(isDeviceReady(snapshot())).toBe(false);
    send(REGISTERED);
    expect(snapshot().value).toBe('ready');
    expect(text()).toBe('Ready to make or receive calls');
    expect(isDeviceReady(snapshot())).toBe(true);
  });

  it('keeps one device: a setup while registering or ready is ignored', () => {
    const { send, snapshot, actions } = start();
    send(SETUP);
    expect(snapshot().can(SETUP)).toBe(false);
    send(SETUP, REGISTERED, SETUP);
    expect(snapshot().value).toBe('ready');
    expect(actions.setupDevice).toHaveBeenCalledTimes(1);
  });

  it('sets Disconnected on a device error in every state but destroyed, and logs it (SPEC §8)', () => {
    const routes: VoiceDeviceEvent[][] = [
      [],
      [SETUP],
      [SETUP, REGISTERED],
      [SETUP, REGISTERED, { type: 'device.offline' }],
      [SETUP, ERROR],
    ];
    for (const route of routes) {
      const { send, snapshot, text, actions } = start();
      send(...route, ERROR);
      expect(snapshot().value).toBe('disconnected');
      expect(text()).toBe('Disconnected');
      expect(snapshot().context.error).toBe('AccessTokenInvalid (20101)');
      expect(paramsOf(actions.logDeviceError).at(-1)).toEqual({ message: 'AccessTokenInvalid (20101)' });
      expect(isDeviceReady(snapshot())).toBe(false);
    }
    const { send, snapshot, actions } = start();
    send(SETUP, { type: 'device.destroy' });
    expect(snapshot().can(ERROR)).toBe(false);
    expect(actions.logDeviceError).not.toHaveBeenCalled();
  });

  it('is Disconnected when unregistered, and a new setup registers again', () => {
    for (const route of [[SETUP], [SETUP, REGISTERED]]) {
      const { send, snapshot, text, actions } = start();
      send(...route, { type: 'device.unregistered' });
      expect(text()).toBe('Disconnected');
      send(SETUP);
      expect(snapshot().value).toBe('registering');
      expect(actions.setupDevice).toHaveBeenCalledTimes(2);
    }
  });

  it('clears the error once registered again', () => {
    const { send, snapshot } = start();
    send(SETUP, ERROR, SETUP);
    expect(snapshot().context.error).toBeNull();
    send(ERROR, REGISTERED);
    expect(snapshot().value).toBe('ready');
    expect(snapshot().context.error).toBeNull();
  });

  it('goes "Device Offline" without network and registers again when it is back', () => {
    for (const route of [[SETUP], [SETUP, REGISTERED], [SETUP, ERROR]]) {
      const { send, snapshot, text, actions } = start();
      send(...route, { type: 'device.offline' });
      expect(snapshot().value).toBe('offline');
      expect(text()).toBe('Device Offline');
      expect(isDeviceReady(snapshot())).toBe(false);
      send({ type: 'device.online' });
      expect(snapshot().value).toBe('registering');
      expect(actions.registerDevice).toHaveBeenCalledTimes(1);
      expect(actions.setupDevice).toHaveBeenCalledTimes(1);
    }
  });

  it('from offline: a new setup re-registers, and a registration the provider made itself is Ready', () => {
    const viaSetup = start();
    viaSetup.send(SETUP, REGISTERED, { type: 'device.offline' }, SETUP);
    expect(viaSetup.snapshot().value).toBe('registering');
    expect(viaSetup.actions.setupDevice).toHaveBeenCalledTimes(2);
    const viaProvider = start();
    viaProvider.send(SETUP, REGISTERED, { type: 'device.offline' }, REGISTERED);
    expect(viaProvider.snapshot().value).toBe('ready');
    expect(viaProvider.actions.registerDevice).not.toHaveBeenCalled();
  });

  it('is "Device Destroyed" once destroyed, and can be set up again as a new device', () => {
    for (const route of [[SETUP], [SETUP, REGISTERED], [SETUP, { type: 'device.offline' }], [SETUP, ERROR]]) {
      const { send, snapshot, text, actions } = start();
      send(...(route as VoiceDeviceEvent[]), { type: 'device.destroy' });
      expect(snapshot().value).toBe('destroyed');
      expect(text()).toBe('Device Destroyed');
      expect(actions.destroyDevice).toHaveBeenCalledTimes(1);
      for (const late of [
        REGISTERED,
        { type: 'device.online' },
        { type: 'device.tokenWillExpire' },
      ] as const) {
        expect(snapshot().can(late)).toBe(false);
      }
      expect(snapshot().can(SETUP_WITHOUT_TOKEN)).toBe(false);
      send(SETUP);
      expect(snapshot().value).toBe('registering');
      expect(actions.setupDevice).toHaveBeenCalledTimes(2);
    }
  });

  it('never destroys a device that does not exist', () => {
    const { snapshot } = start();
    expect(snapshot().can({ type: 'device.destroy' })).toBe(false);
  });

  it('fetches a new token once before expiry and hands it to the device', () => {
    const { send, snapshot, actions } = start();
    send(SETUP, REGISTERED, { type: 'device.tokenWillExpire' }, { type: 'device.tokenWillExpire' });
    expect(actions.fetchToken).toHaveBeenCalledTimes(1);
    expect(snapshot().context.refreshingToken).toBe(true);
    send({ type: 'device.tokenRefreshed', token: 'new-token' });
    expect(paramsOf(actions.updateToken)).toEqual([{ token: 'new-token' }]);
    expect(snapshot().context.refreshingToken).toBe(false);
    expect(snapshot().value).toBe('ready');
    // A token nobody asked for is not handed over; the next expiry asks again.
    expect(snapshot().can({ type: 'device.tokenRefreshed', token: 'stray' })).toBe(false);
    send({ type: 'device.tokenWillExpire' });
    expect(actions.fetchToken).toHaveBeenCalledTimes(2);
  });

  it('refreshes the token in registering, offline and disconnected too, but not without a device', () => {
    for (const route of [[SETUP], [SETUP, { type: 'device.offline' }], [SETUP, ERROR]]) {
      const { send, actions } = start();
      send(...(route as VoiceDeviceEvent[]), { type: 'device.tokenWillExpire' });
      expect(actions.fetchToken).toHaveBeenCalledTimes(1);
    }
    const { snapshot } = start();
    expect(snapshot().can({ type: 'device.tokenWillExpire' })).toBe(false);
  });

  it('a destroyed device forgets a token refresh under way', () => {
    const { send, snapshot, actions } = start();
    send(SETUP, { type: 'device.tokenWillExpire' }, { type: 'device.destroy' }, SETUP);
    expect(snapshot().context.refreshingToken).toBe(false);
    send({ type: 'device.tokenWillExpire' });
    expect(actions.fetchToken).toHaveBeenCalledTimes(2);
  });

  it('shows exactly the SPEC texts, one per state', () => {
    expect(Object.keys(voiceDeviceMachine.root.states).sort()).toEqual(Object.keys(DEVICE_STATES).sort());
    for (const state of Object.keys(DEVICE_STATES) as (keyof typeof DEVICE_STATES)[]) {
      expect(selectDeviceStatusText({ value: state })).toBe(DEVICE_STATES[state]);
    }
  });
});

describe('voice device statechart as a test model', () => {
  const sampleEvents: VoiceDeviceEvent[] = [
    SETUP,
    SETUP_WITHOUT_TOKEN,
    REGISTERED,
    { type: 'device.unregistered' },
    { type: 'device.offline' },
    { type: 'device.online' },
    ERROR,
    { type: 'device.tokenWillExpire' },
    { type: 'device.tokenRefreshed', token: 'new-token' },
    { type: 'device.destroy' },
  ];
  const model = createTestModel(voiceDeviceMachine, {
    events: sampleEvents,
    filterEvents: (snapshot, event) => snapshot.can(event),
  });

  it('is accepted by createTestModel: finite shortest paths reaching every state', () => {
    const shortest = model.getShortestPaths();
    const states = Object.keys(voiceDeviceMachine.root.states).sort();
    const visited = new Set(shortest.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...visited].sort()).toEqual(states);
    // The counts the report quotes: graph nodes are state × context (error text, token refresh flag) ×
    // the event that led there; one shortest path per node that is not on the way to another.
    expect(Object.keys(model.getAdjacencyMap())).toHaveLength(59);
    expect(shortest.length).toBe(43);
  });

  it('reaches every transition of every state with the sample events', () => {
    const taken = transitionIdsOfGraph(voiceDeviceMachine, model.getAdjacencyMap());
    expect([...taken].sort()).toEqual(allTransitionIds(voiceDeviceMachine).sort());
  });
});
