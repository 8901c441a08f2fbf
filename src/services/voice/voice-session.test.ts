// The voice session: the statecharts' effects against a scripted provider and a fake network (the
// axios adapter), so the call-history requests run through the real HTTP client.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CALLING_STATUS,
  DEVICE_STATES,
  NO_ACTIVE_INCOMING,
  UNABLE_TO_MAKE_CALL,
} from '../../../contracts/calls';
import { selectDeviceStatusText } from '../../machines/voice-device.machine';
import { configureHttp, http } from '../http';
import {
  createFakeAdapter,
  type Deferred,
  deferred,
  type FakeReply,
  type RecordedRequest,
} from '../testing/fake-adapter';
import { FAKE_VOICE_TOKEN, FakeVoiceDevice } from './testing-fakes';
import {
  GENERATE_CALL_PATH,
  RING_TIMEOUT_MS,
  startVoice,
  updateHistoryPath,
  type VoiceHandle,
} from './voice-session';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
let clock: number;
let requests: RecordedRequest[];
let responder: (request: RecordedRequest) => FakeReply | Promise<FakeReply>;
let unconfigure: () => void;
let devices: FakeVoiceDevice[];
let handle: VoiceHandle | null;
let errors: ReturnType<typeof vi.spyOn>;
let warnings: ReturnType<typeof vi.spyOn>;
const originalAdapter = http.defaults.adapter;

function defaultResponder(request: RecordedRequest): FakeReply {
  if (request.url === GENERATE_CALL_PATH) return { status: 201, data: { data: { callId: 'log-1' } } };
  if (request.url.startsWith('/api/v1/callHistory/method/updateHistory/'))
    return { status: 200, data: { data: {} } };
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  clock = T0;
  responder = defaultResponder;
  const fake = createFakeAdapter((request) => responder(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'access-token' });
  devices = [];
  handle = null;
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  handle?.stop();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  vi.restoreAllMocks();
});

function start(fetchToken = async () => FAKE_VOICE_TOKEN): VoiceHandle {
  handle = startVoice({
    now: () => clock,
    fetchToken,
    providerFactory: (token) => {
      const device = new FakeVoiceDevice(token);
      devices.push(device);
      return device;
    },
  });
  return handle;
}

async function ready(): Promise<{ voice: VoiceHandle; device: FakeVoiceDevice }> {
  const voice = start();
  await vi.waitFor(() => expect(voice.device.getSnapshot().value).toBe('ready'));
  return { voice, device: devices[0] as FakeVoiceDevice };
}

const puts = () => requests.filter((request) => request.method === 'PUT');

describe('voice session', () => {
  it('fetches the token, creates the device and registers it: Ready, with the user number', async () => {
    const voice = start();
    expect(selectDeviceStatusText(voice.device.getSnapshot())).toBe(DEVICE_STATES.notReady);
    expect(voice.info()).toBeNull();
    await vi.waitFor(() =>
      expect(selectDeviceStatusText(voice.device.getSnapshot())).toBe(DEVICE_STATES.ready),
    );
    expect(devices).toHaveLength(1);
    expect(devices[0]?.actions).toEqual(['register']);
    expect(voice.info()).toEqual({ phoneNumber: '+919000000001', provider: 'local' });
  });

  it('incoming → INCOMING log → accept → hang up → feedback saved with details and feedback → idle', async () => {
    const { voice, device } = await ready();
    const ringing = device.ring('CA-1', '+919000000003');
    expect(voice.call.getSnapshot().value).toBe('ringing');
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.incoming);
    await vi.waitFor(() => expect(voice.call.getSnapshot().context.callId).toBe('log-1'));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: GENERATE_CALL_PATH,
      authorization: 'Bearer access-token',
      body: {
        phoneNumber: '+919000000003',
        referenceType: 'INCOMING',
        source: 'LOCAL',
        callDetails: { callStatus: 'Not Picked', callDuration: 0, callStartedAt: null, callEndedAt: null },
      },
    });

    clock = T0 + 5_000;
    voice.call.send({ type: 'call.accept', at: clock });
    expect(ringing.actions).toEqual(['accept']);
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.onCall);

    clock = T0 + 5_000 + 42_000;
    voice.call.send({ type: 'call.hangup', at: clock });
    expect(ringing.actions).toEqual(['accept', 'hangup']);
    expect(voice.call.getSnapshot().value).toBe('feedback');

    voice.call.send({ type: 'feedback.rate', rating: 4 });
    voice.call.send({ type: 'feedback.change', text: '  Helpful caller ' });
    voice.call.send({ type: 'feedback.submit' });
    await vi.waitFor(() => expect(voice.call.getSnapshot().value).toBe('idle'));
    const updates = puts();
    expect(updates.map((request) => request.url)).toEqual([
      updateHistoryPath('log-1'),
      updateHistoryPath('log-1'),
      updateHistoryPath('log-1'),
    ]);
    expect(updates[2]?.body).toEqual({
      callDetails: {
        callDuration: 42,
        callStartedAt: new Date(T0 + 5_000).toISOString(),
        callStatus: 'Connected',
        callEndedAt: new Date(T0 + 47_000).toISOString(),
      },
      feedbackData: { rating: 4, text: 'Helpful caller' },
    });
    expect(voice.call.getSnapshot().context).toMatchObject({
      callId: null,
      feedback: { open: false, text: '' },
    });
  });

  it('outgoing: dial → OUTGOING log → answered → mute/unmute → the callee hangs up', async () => {
    const { voice, device } = await ready();
    voice.call.send({ type: 'call.dial', number: '+91 90000 00003', deviceReady: true });
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.connecting);
    expect(device.actions).toContain('dial +919000000003');
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toMatchObject({
      referenceType: 'OUTGOING',
      phoneNumber: '+919000000003',
      source: 'LOCAL',
    });
    const outgoing = device.dialled[0];
    if (!outgoing) throw new Error('not dialled');
    await Promise.resolve();

    clock = T0 + 1_000;
    outgoing.events.emit('answered', 'sid-out');
    expect(voice.call.getSnapshot().context).toMatchObject({
      statusText: CALLING_STATUS.connected,
      callSid: 'sid-out',
      startedAt: T0 + 1_000,
    });
    voice.call.send({ type: 'call.mute' });
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.muted);
    voice.call.send({ type: 'call.unmute' });
    expect(outgoing.actions).toEqual(['mute', 'unmute']);

    outgoing.events.emit('reconnecting');
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.reconnecting);
    outgoing.events.emit('reconnected');
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.reconnected);

    clock = T0 + 11_000;
    outgoing.events.emit('remoteEnded', 'hangup');
    expect(voice.call.getSnapshot().value).toBe('feedback');
    expect(voice.call.getSnapshot().context.durationSeconds).toBe(10);
    await vi.waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]?.body).toMatchObject({ callDetails: { callDuration: 10, callStatus: 'Connected' } });
    expect(outgoing.actions).toEqual(['mute', 'unmute']); // the remote end needs no hang-up of ours
  });

  it('holds an update until generateCall answered, then sends it to the new log', async () => {
    const create: Deferred<FakeReply> = deferred();
    responder = (request) =>
      request.url === GENERATE_CALL_PATH ? create.promise : defaultResponder(request);
    const { voice, device } = await ready();
    const ringing = device.ring('CA-2', '+919000000004');
    voice.call.send({ type: 'call.ignore' });
    expect(ringing.actions).toEqual(['ignore']);
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.ignored);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(puts()).toHaveLength(0);

    create.resolve({ status: 201, data: { data: { callId: 'log-late' } } });
    await vi.waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toMatchObject({
      url: updateHistoryPath('log-late'),
      body: { callDetails: { callStatus: 'Call Ignored' } },
    });
  });

  it('a failed feedback keeps the modal open with the server message; a retry succeeds', async () => {
    let failFeedback = true;
    responder = (request) => {
      const body = request.body as { feedbackData?: unknown } | undefined;
      if (request.method === 'PUT' && body?.feedbackData && failFeedback)
        return { status: 404, data: { message: 'Call log not found', code: 'NOT_FOUND' } };
      return defaultResponder(request);
    };
    const { voice, device } = await ready();
    device.ring('CA-3', '+919000000005');
    voice.call.send({ type: 'call.reject' });
    expect(voice.call.getSnapshot().value).toBe('feedback');
    voice.call.send({ type: 'feedback.rate', rating: 2 });
    voice.call.send({ type: 'feedback.submit' });
    await vi.waitFor(() =>
      expect(voice.call.getSnapshot().context.feedback.error).toBe('Call log not found'),
    );
    expect(voice.call.getSnapshot().value).toBe('feedback');
    failFeedback = false;
    voice.call.send({ type: 'feedback.submit' });
    await vi.waitFor(() => expect(voice.call.getSnapshot().value).toBe('idle'));
  });

  it('a device error sets Disconnected and is logged', async () => {
    const { voice, device } = await ready();
    device.events.emit('error', 'AccessTokenInvalid');
    expect(selectDeviceStatusText(voice.device.getSnapshot())).toBe(DEVICE_STATES.disconnected);
    expect(errors).toHaveBeenCalledWith('AccessTokenInvalid');
  });

  it('a failed registration and a failed token fetch are device errors', async () => {
    const voice = start(async () => {
      throw new Error('Voice is switched off');
    });
    await vi.waitFor(() =>
      expect(selectDeviceStatusText(voice.device.getSnapshot())).toBe(DEVICE_STATES.disconnected),
    );
    expect(errors).toHaveBeenCalledWith('Voice is switched off');
    voice.stop();

    const refused = startVoice({
      fetchToken: async () => FAKE_VOICE_TOKEN,
      providerFactory: (token) => {
        const device = new FakeVoiceDevice(token);
        device.registerResult = async () => {
          throw new Error('This voice token belongs to another user.');
        };
        return device;
      },
    });
    handle = refused;
    await vi.waitFor(() => expect(refused.device.getSnapshot().value).toBe('disconnected'));
    expect(errors).toHaveBeenCalledWith('This voice token belongs to another user.');
  });

  it('a failed token fetch is tried again, backing off, until the device is Ready', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let attempts = 0;
      const voice = start(async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('Network Error');
        return FAKE_VOICE_TOKEN;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(voice.device.getSnapshot().value).toBe('disconnected');
      await vi.advanceTimersByTimeAsync(4_999);
      expect(attempts).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toBe(2);
      await vi.advanceTimersByTimeAsync(10_000); // the second wait is twice the first
      expect(attempts).toBe(3);
      await vi.advanceTimersByTimeAsync(0);
      expect(voice.device.getSnapshot().value).toBe('ready');
      expect(devices).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('offline before the device was ever made: back online makes and registers it', async () => {
    let fail = true;
    const voice = start(async () => {
      if (fail) throw new Error('Network Error');
      return FAKE_VOICE_TOKEN;
    });
    await vi.waitFor(() => expect(voice.device.getSnapshot().value).toBe('disconnected'));
    window.dispatchEvent(new Event('offline'));
    expect(voice.device.getSnapshot().value).toBe('offline');
    fail = false;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(voice.device.getSnapshot().value).toBe('ready'));
    expect(devices).toHaveLength(1);
  });

  it('a call log request that never answers gives up, so later calls are logged', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let hang = true;
      responder = (request) =>
        hang && request.url === GENERATE_CALL_PATH
          ? new Promise<FakeReply>(() => {}) // never answers; the client's timeout ends it
          : defaultResponder(request);
      const { voice, device } = await ready();
      device.ring('CA-1', '+919000000003');
      await vi.advanceTimersByTimeAsync(0); // its generateCall is on its way, and hangs
      voice.call.send({ type: 'call.ignore' });
      hang = false;
      voice.call.send({ type: 'call.dismiss' });
      device.ring('CA-2', '+919000000004');
      expect(voice.call.getSnapshot().context.callId).toBeNull();
      await vi.advanceTimersByTimeAsync(15_000);
      expect(voice.call.getSnapshot().context.callId).toBe('log-1');
      expect(errors).toHaveBeenCalledWith('The call log could not be created.', 'timeout exceeded');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an outgoing call nobody answers ends after the ring timeout as not picked up', async () => {
    const { voice, device } = await ready();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      voice.call.send({ type: 'call.dial', number: '+91 90000 00003', deviceReady: true });
      await vi.advanceTimersByTimeAsync(0);
      const dialled = device.dialled[0];
      expect(voice.call.getSnapshot().value).toBe('connecting');
      await vi.advanceTimersByTimeAsync(RING_TIMEOUT_MS - 1);
      expect(voice.call.getSnapshot().value).toBe('connecting');
      await vi.advanceTimersByTimeAsync(1);
      expect(dialled?.actions).toEqual(['hangup']);
      expect(voice.call.getSnapshot().context).toMatchObject({
        statusText: CALLING_STATUS.disconnected,
        callStatus: 'Not Picked',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('offline and back: registers again', async () => {
    const { voice, device } = await ready();
    device.events.emit('offline');
    expect(selectDeviceStatusText(voice.device.getSnapshot())).toBe(DEVICE_STATES.offline);
    window.dispatchEvent(new Event('online'));
    expect(device.actions).toEqual(['register', 'register']);
    await vi.waitFor(() => expect(voice.device.getSnapshot().value).toBe('ready'));
  });

  it('refreshes the token when the device says it will expire', async () => {
    let fetches = 0;
    const voice = start(async () => ({ ...FAKE_VOICE_TOKEN, token: `voice-token-${++fetches}` }));
    await vi.waitFor(() => expect(voice.device.getSnapshot().value).toBe('ready'));
    devices[0]?.events.emit('tokenWillExpire');
    await vi.waitFor(() => expect(devices[0]?.tokens).toEqual(['voice-token-2']));
  });

  it('a second call while the line is busy is rejected; accept without a call is only logged', async () => {
    const { voice, device } = await ready();
    voice.call.send({ type: 'call.accept', at: clock });
    expect(errors).toHaveBeenCalledWith(NO_ACTIVE_INCOMING);
    const first = device.ring('CA-4', '+919000000006');
    const second = device.ring('CA-5', '+919000000007');
    expect(second.actions).toEqual(['reject']);
    expect(first.actions).toEqual([]);
    expect(voice.call.getSnapshot().context.callSid).toBe('CA-4');
  });

  it('a dial the provider refuses is logged "Unable to make call." and ends with the error status', async () => {
    const { voice, device } = await ready();
    device.dialResult = async () => {
      throw new Error('Permission denied');
    };
    voice.call.send({ type: 'call.dial', number: '9000000003', deviceReady: true });
    await vi.waitFor(() => expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.error));
    expect(errors).toHaveBeenCalledWith(UNABLE_TO_MAKE_CALL);
    expect(warnings).toHaveBeenCalledWith('Permission denied');
  });

  it('a number no one owns ends the call as not picked up', async () => {
    const { voice, device } = await ready();
    voice.call.send({ type: 'call.dial', number: '9000000099', deviceReady: true });
    await vi.waitFor(() => expect(device.dialled).toHaveLength(1));
    await Promise.resolve();
    device.dialled[0]?.events.emit('remoteEnded', 'unavailable', 'No one has the number 9000000099.');
    expect(voice.call.getSnapshot().context).toMatchObject({
      statusText: CALLING_STATUS.disconnected,
      callStatus: 'Not Picked',
    });
    expect(warnings).toHaveBeenCalledWith('No one has the number 9000000099.');
  });

  it('hanging up while the dial is still on its way ends the call once dialled', async () => {
    const { voice, device } = await ready();
    const dial = deferred<void>();
    device.dialResult = async (number) => {
      await dial.promise;
      const call = new (await import('./testing-fakes')).FakeVoiceCall('OUTGOING', null, number);
      device.dialled.push(call);
      return call;
    };
    voice.call.send({ type: 'call.dial', number: '9000000003', deviceReady: true });
    voice.call.send({ type: 'call.hangup', at: clock });
    expect(voice.call.getSnapshot().context.statusText).toBe(CALLING_STATUS.cancelled);
    dial.resolve();
    await vi.waitFor(() => expect(device.dialled[0]?.actions).toEqual(['hangup']));
  });

  it('stop destroys the device', async () => {
    const { voice, device } = await ready();
    voice.stop();
    handle = null;
    expect(device.actions).toContain('destroy');
  });
});
