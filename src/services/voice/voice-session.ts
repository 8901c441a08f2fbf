// The voice session (issue 6): the voice-device and call statecharts provided with their effects and
// driven by a voice provider's events, the call log kept with the call-history routes. The UI reads
// both actors (status texts, toast, feedback modal) and sends them the user's events.
//
// The call log: generateCall is asked for when a call starts; every update of the call (and the
// feedback) goes out in order after it. An update the machine makes before the create answered
// carries `callId: null` (call.machine.ts): it is held until the create's answer names the log.
import { type ActorRefFrom, createActor } from 'xstate';
import {
  type CallDetails,
  type CallSource,
  UNABLE_TO_MAKE_CALL,
  type VoiceProvider,
  type VoiceToken,
  voiceTokenResponseSchema,
} from '../../../contracts/calls';
import { type CallEvent, type CallMachine, callMachine } from '../../machines/call.machine';
import {
  type VoiceDeviceEvent,
  type VoiceDeviceMachine,
  voiceDeviceMachine,
} from '../../machines/voice-device.machine';
import { getErrorMessage, http } from '../http';
import { createLocalProvider } from './local-provider';
import { createTwilioProvider } from './twilio-provider';
import { errorMessage, type Unsubscribe, type VoiceCall, type VoiceProviderDevice } from './voice-provider';

export const VOICE_TOKEN_PATH = '/api/v1/voice/method/getAccessToken';
export const GENERATE_CALL_PATH = '/api/v1/callHistory/method/generateCall';
export const updateHistoryPath = (callId: string) =>
  `/api/v1/callHistory/method/updateHistory/${encodeURIComponent(callId)}`;

/** Why feedback could not be saved when the call's log was never created. */
export const NO_CALL_LOG_MESSAGE = 'This call was not logged, so its feedback cannot be saved.';

export interface StartVoiceOptions {
  /** test seams */
  providerFactory?: (token: VoiceToken) => VoiceProviderDevice;
  fetchToken?: () => Promise<VoiceToken>;
  now?: () => number;
}

export interface VoiceHandle {
  device: ActorRefFrom<VoiceDeviceMachine>;
  call: ActorRefFrom<CallMachine>;
  /** the user's own number and provider */
  info(): { phoneNumber: string; provider: VoiceProvider } | null;
  stop(): void;
}

/** GET getAccessToken (SPEC §7), validated. Failures are not toasted: the session logs them. */
export async function fetchVoiceToken(): Promise<VoiceToken> {
  const response = await http.get(VOICE_TOKEN_PATH, { silent: true });
  return voiceTokenResponseSchema.parse(response.data).data;
}

function defaultProvider(token: VoiceToken): VoiceProviderDevice {
  return token.provider === 'twilio' ? createTwilioProvider(token) : createLocalProvider(token);
}

const sourceOf = (provider: VoiceProvider): CallSource => (provider === 'twilio' ? 'TWILIO' : 'LOCAL');

function logCallError(message: string, detail?: unknown) {
  if (detail === undefined) console.error(message);
  else console.error(message, detail);
}

/** An outgoing call rings this long before it ends as not picked up, like a phone network's no-answer. */
export const RING_TIMEOUT_MS = 45_000;
/** A token fetch that failed is tried again after 5 s, then 10, 20, … up to a minute apart. */
const TOKEN_RETRY_FIRST_MS = 5_000;
const TOKEN_RETRY_MAX_MS = 60_000;
/**
 * Call log requests go one after the other (an update needs the create's id): one that never answers
 * must not hold every later call's log, so each gives up after 15 s (logged; the feedback then says so).
 */
const LOG_REQUEST_TIMEOUT_MS = 15_000;
const LOG_REQUEST = { silent: true, timeout: LOG_REQUEST_TIMEOUT_MS } as const;

/** The request, or a rejection once the time is up (whatever the HTTP adapter does with `timeout`). */
function withinTime<T>(request: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout exceeded')), LOG_REQUEST_TIMEOUT_MS);
  });
  return Promise.race([request, timeout]).finally(() => clearTimeout(timer));
}

export function startVoice(options: StartVoiceOptions = {}): VoiceHandle {
  const now = options.now ?? Date.now;
  const fetchToken = options.fetchToken ?? fetchVoiceToken;
  const providerFactory = options.providerFactory ?? defaultProvider;

  let stopped = false;
  let token: VoiceToken | null = null;
  let provider: VoiceProviderDevice | null = null;
  let providerSubscriptions: Unsubscribe[] = [];

  // Declared before the actors: actions run during `start()` and only reach them through these.
  let deviceActor: ActorRefFrom<VoiceDeviceMachine>;
  let callActor: ActorRefFrom<CallMachine>;
  const sendDevice = (event: VoiceDeviceEvent) => {
    if (!stopped) deviceActor.send(event);
  };
  const sendCall = (event: CallEvent) => {
    if (!stopped) callActor.send(event);
  };

  // --- calls ---------------------------------------------------------------------------------------
  /** The call the machine is about (ringing, dialled or connected). */
  let current: VoiceCall | null = null;
  let currentSubscriptions: Unsubscribe[] = [];
  /** Calls that ring while the line is busy, until the machine rejects them (rejectBusy). */
  const waiting = new Map<string, VoiceCall>();
  /** Bumped per dial: a dial that resolves after a hang-up is ended at once. */
  let dialGeneration = 0;
  let dialHungUp = false;
  /** Ends an outgoing call nobody answers (see RING_TIMEOUT_MS). */
  let ringTimer: ReturnType<typeof setTimeout> | null = null;

  function release() {
    for (const unsubscribe of currentSubscriptions) unsubscribe();
    currentSubscriptions = [];
    current = null;
  }

  function follow(call: VoiceCall) {
    release();
    current = call;
    const mine = (handler: () => void) => () => {
      if (current === call) handler();
    };
    currentSubscriptions = [
      call.on('answered', (callSid) => mine(() => sendCall({ type: 'call.answered', at: now(), callSid }))()),
      call.on('remoteEnded', (reason, message) =>
        mine(() => {
          if (message) console.warn(message);
          release();
          sendCall({ type: 'call.remoteEnded', reason, at: now() });
        })(),
      ),
      call.on(
        'reconnecting',
        mine(() => sendCall({ type: 'call.reconnecting' })),
      ),
      call.on(
        'reconnected',
        mine(() => sendCall({ type: 'call.reconnected' })),
      ),
      call.on('error', (message) =>
        mine(() => {
          release();
          sendCall({ type: 'call.error', message, at: now() });
        })(),
      ),
    ];
  }

  /** Ends our side of the current call with `end` and stops following it. */
  function endCurrent(end: (call: VoiceCall) => void) {
    const call = current;
    release();
    if (call) end(call);
  }

  // --- the call log --------------------------------------------------------------------------------
  /** The current call's log: its id once generateCall answered (null when that failed). */
  let currentLog: Promise<string | null> = Promise.resolve(null);
  /** Updates go out one after the other, after the create. */
  let logQueue: Promise<unknown> = Promise.resolve();

  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = logQueue.then(task);
    logQueue = run.catch(() => {});
    return run;
  }

  function createLog(params: {
    phoneNumber: string;
    referenceType: 'INCOMING' | 'OUTGOING';
    callDetails: CallDetails;
  }) {
    const source = sourceOf(token?.provider ?? 'local');
    currentLog = enqueue(async () => {
      try {
        const response = await withinTime(http.post(GENERATE_CALL_PATH, { ...params, source }, LOG_REQUEST));
        const callId = (response.data as { data?: { callId?: unknown } })?.data?.callId;
        if (typeof callId !== 'string') throw new Error('generateCall answered without a callId');
        sendCall({ type: 'call.logCreated', callId });
        return callId;
      } catch (error) {
        logCallError('The call log could not be created.', getErrorMessage(error));
        return null;
      }
    });
  }

  /** The id an update goes to: the machine's, or (still null there) the current create's answer. */
  const logIdFor = (callId: string | null, log: Promise<string | null>) =>
    callId ? Promise.resolve(callId) : log;

  function updateLog(params: { callId: string | null; callDetails: CallDetails }) {
    const log = logIdFor(params.callId, currentLog);
    enqueue(async () => {
      const callId = await log;
      if (!callId) return; // the create failed (already logged): nothing to update
      try {
        await withinTime(
          http.put(updateHistoryPath(callId), { callDetails: params.callDetails }, LOG_REQUEST),
        );
      } catch (error) {
        logCallError('The call log could not be updated.', getErrorMessage(error));
      }
    });
  }

  function submitFeedback(params: {
    callId: string | null;
    callDetails: CallDetails;
    feedbackData: { rating: number; text: string };
  }) {
    const log = logIdFor(params.callId, currentLog);
    enqueue(async () => {
      const callId = await log;
      if (!callId) {
        sendCall({ type: 'feedback.failed', message: NO_CALL_LOG_MESSAGE });
        return;
      }
      try {
        await withinTime(
          http.put(
            updateHistoryPath(callId),
            { callDetails: params.callDetails, feedbackData: params.feedbackData },
            LOG_REQUEST,
          ),
        );
        sendCall({ type: 'feedback.submitted' });
      } catch (error) {
        logCallError('The call feedback could not be saved.', getErrorMessage(error));
        sendCall({ type: 'feedback.failed', message: getErrorMessage(error) });
      }
    });
  }

  const call = callMachine.provide({
    actions: {
      // The UI reads the toast's visibility from the machine (isIncomingToastVisible).
      showIncomingToast: () => {},
      hideIncomingToast: () => {},
      createLog: (_, params) => createLog(params),
      updateLog: (_, params) => updateLog(params),
      submitFeedback: (_, params) => submitFeedback(params),
      acceptCall: () => current?.accept(),
      rejectCall: () => endCurrent((ringing) => ringing.reject()),
      ignoreCall: () => endCurrent((ringing) => ringing.ignore()),
      rejectBusy: (_, { callSid }) => {
        const busy = waiting.get(callSid);
        waiting.delete(callSid);
        busy?.reject();
      },
      makeCall: (_, { number }) => {
        const device = provider;
        const mine = ++dialGeneration;
        dialHungUp = false;
        if (ringTimer) clearTimeout(ringTimer);
        ringTimer = setTimeout(() => {
          ringTimer = null;
          if (mine !== dialGeneration || callActor.getSnapshot().value !== 'connecting') return;
          // Nobody answered: our side hangs up (the callee's card goes) and the call was not picked up.
          dialHungUp = true;
          endCurrent((call) => call.hangup());
          sendCall({ type: 'call.remoteEnded', reason: 'unavailable', at: now() });
        }, RING_TIMEOUT_MS);
        if (!device) {
          queueMicrotask(() => sendCall({ type: 'call.error', message: UNABLE_TO_MAKE_CALL, at: now() }));
          return;
        }
        device.dial(number).then(
          (dialled) => {
            if (mine !== dialGeneration || dialHungUp || stopped) {
              dialled.hangup();
              return;
            }
            follow(dialled);
          },
          (error: unknown) => {
            console.warn(errorMessage(error));
            if (mine === dialGeneration && !dialHungUp) {
              sendCall({ type: 'call.error', message: UNABLE_TO_MAKE_CALL, at: now() });
            }
          },
        );
      },
      hangUp: () => {
        // Still dialling: the dial's answer hangs it up.
        if (!current) dialHungUp = true;
        endCurrent((active) => active.hangup());
      },
      muteCall: () => current?.mute(true),
      unmuteCall: () => current?.mute(false),
      logError: (_, { message }) => logCallError(message),
    },
  });

  // --- the device ----------------------------------------------------------------------------------
  function dropProvider() {
    for (const unsubscribe of providerSubscriptions) unsubscribe();
    providerSubscriptions = [];
    const old = provider;
    provider = null;
    release();
    waiting.clear();
    old?.destroy();
  }

  function register(device: VoiceProviderDevice) {
    device.register().catch((error: unknown) => {
      if (device === provider) sendDevice({ type: 'device.error', message: errorMessage(error) });
    });
  }

  function setupDevice() {
    dropProvider();
    // No token yet (the first fetch failed): fetch one; the device is made when it answers.
    if (!token) return connect();
    let device: VoiceProviderDevice;
    try {
      device = providerFactory(token);
    } catch (error) {
      queueMicrotask(() => sendDevice({ type: 'device.error', message: errorMessage(error) }));
      return;
    }
    provider = device;
    const mine = (handler: () => void) => () => {
      if (provider === device) handler();
    };
    providerSubscriptions = [
      device.on(
        'registered',
        mine(() => sendDevice({ type: 'device.registered' })),
      ),
      device.on(
        'unregistered',
        mine(() => sendDevice({ type: 'device.unregistered' })),
      ),
      device.on(
        'offline',
        mine(() => sendDevice({ type: 'device.offline' })),
      ),
      device.on('error', (message) => mine(() => sendDevice({ type: 'device.error', message }))()),
      device.on(
        'tokenWillExpire',
        mine(() => sendDevice({ type: 'device.tokenWillExpire' })),
      ),
      device.on('incoming', (incoming) =>
        mine(() => {
          const callSid = incoming.callSid ?? '';
          // Free line: this call becomes the machine's; busy: the machine rejects it (rejectBusy).
          const free = callActor.getSnapshot().value === 'idle' || callActor.getSnapshot().value === 'ended';
          if (free) follow(incoming);
          else waiting.set(callSid, incoming);
          sendCall({ type: 'call.incoming', callSid, from: incoming.from });
        })(),
      ),
    ];
    register(device);
  }

  const device = voiceDeviceMachine.provide({
    actions: {
      setupDevice: () => setupDevice(),
      // Back online: the device registers again, or is made now if it never was (no token yet, or
      // making it failed).
      registerDevice: () => {
        if (provider) register(provider);
        else if (token) setupDevice();
        else connect();
      },
      destroyDevice: () => dropProvider(),
      fetchToken: () => {
        fetchToken().then(
          (fresh) => {
            token = fresh;
            sendDevice({ type: 'device.tokenRefreshed', token: fresh.token });
            if (!provider && !stopped) setupDevice();
          },
          (error: unknown) => sendDevice({ type: 'device.error', message: getErrorMessage(error) }),
        );
      },
      updateToken: (_, { token: fresh }) => provider?.updateToken(fresh),
      logDeviceError: (_, { message }) => console.error(message),
    },
  });

  deviceActor = createActor(device);
  callActor = createActor(call);
  deviceActor.start();
  callActor.start();

  // The browser's own network signal (Twilio's Device has none of its own).
  const onOffline = () => sendDevice({ type: 'device.offline' });
  const onOnline = () => sendDevice({ type: 'device.online' });
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
  }

  /**
   * Fetches the voice token and sets the device up. A failure shows Disconnected (SPEC §8) and tries
   * again later, backing off, so a server that was briefly away does not leave the phone dead.
   */
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryDelayMs = TOKEN_RETRY_FIRST_MS;
  function connect() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    fetchToken().then(
      (fetched) => {
        if (stopped) return;
        token = fetched;
        retryDelayMs = TOKEN_RETRY_FIRST_MS;
        // Already registering (back online, asked by registerDevice): make the device now.
        if (deviceActor.getSnapshot().value === 'registering') setupDevice();
        else sendDevice({ type: 'device.setup', hasToken: true });
      },
      (error: unknown) => {
        if (stopped) return;
        sendDevice({ type: 'device.error', message: getErrorMessage(error) });
        retryTimer = setTimeout(connect, retryDelayMs);
        retryDelayMs = Math.min(retryDelayMs * 2, TOKEN_RETRY_MAX_MS);
      },
    );
  }
  connect();

  return {
    device: deviceActor,
    call: callActor,
    info: () => (token ? { phoneNumber: token.phoneNumber, provider: token.provider } : null),
    stop() {
      if (stopped) return;
      if (retryTimer) clearTimeout(retryTimer);
      if (ringTimer) clearTimeout(ringTimer);
      // The machine's destroy runs destroyDevice (the provider ends its calls).
      deviceActor.send({ type: 'device.destroy' });
      dropProvider();
      stopped = true;
      if (typeof window !== 'undefined') {
        window.removeEventListener('offline', onOffline);
        window.removeEventListener('online', onOnline);
      }
      callActor.stop();
      deviceActor.stop();
    },
  };
}
