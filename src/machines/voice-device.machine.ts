// The voice device statechart (SPEC §4 "Voice device states", §8 "Device errors set the device state to
// Disconnected"). Pure (ARCHITECTURE.md "Statecharts"): no invoke, no after, no spawn. Every effect is a
// named action with a no-op default that the device adapter (Twilio's Device, or the local WebRTC
// provider) provides with `voiceDeviceMachine.provide({ actions })`; everything the device reports is a
// namespaced `device.*` event the adapter sends in.
//
// States, each shown as its SPEC text (DEVICE_STATES):
// - notReady: no token yet, so no device. `device.setup` with a token creates one and registers it;
//   without a token nothing happens.
// - registering: the device is registering with its provider.
// - ready: registered; calls can be made and received.
// - offline: the network is gone; `device.online` registers again.
// - disconnected: the device failed (any `device.error`, logged) or was unregistered. A new
//   `device.setup` registers again.
// - destroyed: the device was torn down (sign-out, the call service switched off, another tab took the
//   calls). A new `device.setup` creates a new device.
// Only one device at a time: a setup while one is registering or ready is ignored.
import { assign, setup } from 'xstate';
import { DEVICE_STATES, type DeviceStateText } from '../../contracts/calls';

export type VoiceDeviceStatus = keyof typeof DEVICE_STATES;

export interface VoiceDeviceContext {
  /** The last device error (SPEC §8: logged, the state is Disconnected). */
  error: string | null;
  /** A new token was asked for (`tokenWillExpire`) and has not arrived yet: ask only once. */
  refreshingToken: boolean;
}

export type VoiceDeviceEvent =
  /** Create the device and register it. `hasToken`: a voice token exists (the adapter fetched it). */
  | { type: 'device.setup'; hasToken: boolean }
  /** The provider accepted the registration (Twilio `registered`). */
  | { type: 'device.registered' }
  /** The device is no longer registered (Twilio `unregistered`). */
  | { type: 'device.unregistered' }
  /** The network went away (the browser's `offline`, or the signalling connection dropped). */
  | { type: 'device.offline' }
  /** The network is back. */
  | { type: 'device.online' }
  /** Twilio `error` (or the local provider's): logged, Disconnected. */
  | { type: 'device.error'; message: string }
  /** Twilio `tokenWillExpire`: fetch a new token before the current one expires. */
  | { type: 'device.tokenWillExpire' }
  /** The new token arrived: hand it to the device (Twilio `device.updateToken`). */
  | { type: 'device.tokenRefreshed'; token: string }
  /** Tear the device down. */
  | { type: 'device.destroy' };

type EventOf<T extends VoiceDeviceEvent['type']> = Extract<VoiceDeviceEvent, { type: T }>;

/** A new device (from notReady, disconnected, offline or destroyed): nothing of the old one remains. */
const setUp = {
  guard: 'hasToken',
  target: 'registering',
  actions: ['resetForNewDevice', 'setupDevice'],
} as const;

/** SPEC §8: a device error sets Disconnected, and is logged. */
const fail = {
  target: 'disconnected',
  actions: [
    'storeError',
    {
      type: 'logDeviceError',
      params: ({ event }: { event: VoiceDeviceEvent }) => ({
        message: (event as EventOf<'device.error'>).message,
      }),
    },
  ],
} as const;

const destroy = { target: 'destroyed', actions: ['destroyDevice', 'forgetToken'] } as const;
const goOffline = { target: 'offline' } as const;
const becomeReady = { target: 'ready', actions: 'clearError' } as const;

/** A device exists: its token is refreshed before it expires, whatever its state. */
const tokenRefresh = {
  'device.tokenWillExpire': { guard: 'notRefreshing', actions: ['markRefreshing', 'fetchToken'] },
  'device.tokenRefreshed': {
    guard: 'isRefreshing',
    actions: [
      'markRefreshed',
      {
        type: 'updateToken',
        params: ({ event }: { event: VoiceDeviceEvent }) => ({
          token: (event as EventOf<'device.tokenRefreshed'>).token,
        }),
      },
    ],
  },
} as const;

export const voiceDeviceMachine = setup({
  types: {
    context: {} as VoiceDeviceContext,
    events: {} as VoiceDeviceEvent,
  },
  actions: {
    // Context only (pure).
    resetForNewDevice: assign({ error: null, refreshingToken: false }),
    storeError: assign({ error: ({ event }) => (event as EventOf<'device.error'>).message }),
    clearError: assign({ error: null }),
    markRefreshing: assign({ refreshingToken: true }),
    markRefreshed: assign({ refreshingToken: false }),
    forgetToken: assign({ refreshingToken: false }),
    // Effects: no-ops here, provided by the adapter with `voiceDeviceMachine.provide({ actions })`.
    /** Create the device with the current token (destroying any previous one) and register it. */
    setupDevice: () => {},
    /** Register the existing device again (the network is back). */
    registerDevice: () => {},
    /** Destroy the device (Twilio `device.destroy()`): its calls end. */
    destroyDevice: () => {},
    /** GET getAccessToken; answer with device.tokenRefreshed (or device.error). */
    fetchToken: () => {},
    /** Hand the new token to the device (Twilio `device.updateToken(token)`). */
    updateToken: (_, _params: { token: string }) => {},
    /** SPEC §8: device errors are logged. */
    logDeviceError: (_, _params: { message: string }) => {},
  },
  guards: {
    hasToken: ({ event }) => (event as EventOf<'device.setup'>).hasToken === true,
    notRefreshing: ({ context }) => !context.refreshingToken,
    isRefreshing: ({ context }) => context.refreshingToken,
  },
}).createMachine({
  id: 'voiceDevice',
  context: { error: null, refreshingToken: false },
  initial: 'notReady',
  states: {
    notReady: {
      on: {
        'device.setup': setUp,
        // The adapter could not even create the device (e.g. the token fetch failed).
        'device.error': fail,
      },
    },
    registering: {
      on: {
        'device.registered': becomeReady,
        'device.unregistered': { target: 'disconnected' },
        'device.offline': goOffline,
        'device.error': fail,
        'device.destroy': destroy,
        ...tokenRefresh,
      },
    },
    ready: {
      on: {
        'device.unregistered': { target: 'disconnected' },
        'device.offline': goOffline,
        'device.error': fail,
        'device.destroy': destroy,
        ...tokenRefresh,
      },
    },
    offline: {
      on: {
        'device.online': { target: 'registering', actions: 'registerDevice' },
        // The provider re-registered on its own before the browser said it was back.
        'device.registered': becomeReady,
        'device.setup': setUp,
        'device.error': fail,
        'device.destroy': destroy,
        ...tokenRefresh,
      },
    },
    disconnected: {
      on: {
        'device.setup': setUp,
        'device.registered': becomeReady,
        'device.offline': goOffline,
        // Still Disconnected, and logged again (SPEC §8).
        'device.error': { actions: fail.actions },
        'device.destroy': destroy,
        ...tokenRefresh,
      },
    },
    destroyed: {
      on: {
        'device.setup': setUp,
      },
    },
  },
});

export type VoiceDeviceMachine = typeof voiceDeviceMachine;

interface DeviceSnapshotLike {
  value: unknown;
}

/** The SPEC §4 text of the device's state, exactly as written. */
export function selectDeviceStatusText(snapshot: DeviceSnapshotLike): DeviceStateText {
  return DEVICE_STATES[snapshot.value as VoiceDeviceStatus];
}

/** Calls can be made and received. */
export function isDeviceReady(snapshot: DeviceSnapshotLike): boolean {
  return snapshot.value === 'ready';
}
