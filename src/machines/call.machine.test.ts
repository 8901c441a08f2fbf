// The call statechart on its own: every text, transition and effect (with its params), the durations and
// the logged errors. (The model-based test will run every path of it against the call UI.)
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { CALLING_STATUS, NO_ACTIVE_INCOMING, UNABLE_TO_MAKE_CALL } from '../../contracts/calls';
import {
  type CallEvent,
  callMachine,
  durationSecondsBetween,
  isFeedbackOpen,
  isIncomingToastVisible,
  isLineBusy,
  selectCallDetails,
  selectCallingStatusText,
} from './call.machine';
import { allTransitionIds, transitionIdsOfGraph } from './testing/transition-coverage';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const INCOMING: CallEvent = { type: 'call.incoming', callSid: 'CA-in-1', from: '+919000000003' };
const SECOND_INCOMING: CallEvent = { type: 'call.incoming', callSid: 'CA-in-2', from: '+919000000004' };
const DIAL: CallEvent = { type: 'call.dial', number: '+91 90000 00005', deviceReady: true };
const LOG_CREATED: CallEvent = { type: 'call.logCreated', callId: 'log-1' };
const ACCEPT: CallEvent = { type: 'call.accept', at: T0 };
const ANSWERED: CallEvent = { type: 'call.answered', at: T0, callSid: 'CA-out-1' };
const HANGUP_LATER: CallEvent = { type: 'call.hangup', at: T0 + 65_400 };
const ERROR: CallEvent = { type: 'call.error', message: 'ConnectionError (31005)', at: T0 + 10_000 };

function start() {
  const actions = {
    showIncomingToast: vi.fn(),
    hideIncomingToast: vi.fn(),
    createLog: vi.fn(),
    updateLog: vi.fn(),
    submitFeedback: vi.fn(),
    acceptCall: vi.fn(),
    rejectCall: vi.fn(),
    ignoreCall: vi.fn(),
    rejectBusy: vi.fn(),
    makeCall: vi.fn(),
    hangUp: vi.fn(),
    muteCall: vi.fn(),
    unmuteCall: vi.fn(),
    logError: vi.fn(),
  };
  const actor = createActor(callMachine.provide({ actions })).start();
  const send = (...events: CallEvent[]) => {
    for (const event of events) actor.send(event);
  };
  const snapshot = () => actor.getSnapshot();
  const text = () => selectCallingStatusText(snapshot());
  /** Every effect in order, by name. */
  const fired = () =>
    Object.entries(actions)
      .flatMap(([name, fn]) => fn.mock.invocationCallOrder.map((order) => [order, name] as const))
      .sort(([a], [b]) => a - b)
      .map(([, name]) => name);
  return { actor, send, snapshot, text, actions, fired };
}

/** The params an action was called with (the second argument of an action implementation). */
const paramsOf = (action: ReturnType<typeof vi.fn>) => action.mock.calls.map((call) => call[1]);

describe('call statechart: incoming calls', () => {
  it('starts idle: "No Active Calls", no toast, no modal, the line free', () => {
    const { snapshot, text } = start();
    expect(snapshot().value).toBe('idle');
    expect(text()).toBe('No Active Calls');
    expect(isIncomingToastVisible(snapshot())).toBe(false);
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(isLineBusy(snapshot())).toBe(false);
  });

  it('rings: "Incoming Call", the toast shows and an INCOMING log is created as Not Picked', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING);
    expect(snapshot().value).toBe('ringing');
    expect(text()).toBe('Incoming Call');
    expect(isIncomingToastVisible(snapshot())).toBe(true);
    expect(fired()).toEqual(['showIncomingToast', 'createLog']);
    expect(paramsOf(actions.showIncomingToast)).toEqual([{ callSid: 'CA-in-1', from: '+919000000003' }]);
    expect(paramsOf(actions.createLog)).toEqual([
      {
        phoneNumber: '+919000000003',
        referenceType: 'INCOMING',
        callDetails: { callDuration: 0, callStartedAt: null, callStatus: 'Not Picked', callEndedAt: null },
      },
    ]);
    expect(snapshot().context).toMatchObject({ callSid: 'CA-in-1', direction: 'INCOMING', callId: null });
  });

  it('stores the log id generateCall answers, in every state of a call', () => {
    const { send, snapshot } = start();
    send(INCOMING, LOG_CREATED);
    expect(snapshot().context.callId).toBe('log-1');
    const late = start();
    late.send(INCOMING, ACCEPT, HANGUP_LATER, LOG_CREATED);
    expect(late.snapshot().value).toBe('feedback');
    expect(late.snapshot().context.callId).toBe('log-1');
    // With no call at all the answer belongs to nothing.
    expect(start().snapshot().can(LOG_CREATED)).toBe(false);
  });

  it('Accept: "On Call" with the start time; the toast hides and the log says Connected', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING, LOG_CREATED, ACCEPT);
    expect(snapshot().value).toBe('active');
    expect(text()).toBe('On Call');
    expect(snapshot().context.startedAt).toBe(T0);
    expect(isIncomingToastVisible(snapshot())).toBe(false);
    expect(fired()).toEqual([
      'showIncomingToast',
      'createLog',
      'acceptCall',
      'hideIncomingToast',
      'updateLog',
    ]);
    expect(paramsOf(actions.updateLog)).toEqual([
      {
        callId: 'log-1',
        callDetails: {
          callDuration: 0,
          callStartedAt: new Date(T0).toISOString(),
          callStatus: 'Connected',
          callEndedAt: null,
        },
      },
    ]);
  });

  it('Reject: "Call Rejected", logged Rejected, and the feedback modal opens', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING, LOG_CREATED, { type: 'call.reject' });
    expect(snapshot().value).toBe('feedback');
    expect(text()).toBe('Call Rejected');
    expect(isFeedbackOpen(snapshot())).toBe(true);
    expect(isIncomingToastVisible(snapshot())).toBe(false);
    expect(fired().slice(2)).toEqual(['rejectCall', 'hideIncomingToast', 'updateLog']);
    expect(paramsOf(actions.updateLog)[0]).toEqual({
      callId: 'log-1',
      callDetails: { callDuration: 0, callStartedAt: null, callStatus: 'Rejected', callEndedAt: null },
    });
  });

  it('Ignore: "Call Ignored", logged Call Ignored, no modal; dismissed back to idle', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING, LOG_CREATED, { type: 'call.ignore' });
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Call Ignored');
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(isLineBusy(snapshot())).toBe(false);
    expect(fired().slice(2)).toEqual(['ignoreCall', 'hideIncomingToast', 'updateLog']);
    expect(paramsOf(actions.updateLog)[0].callDetails.callStatus).toBe('Call Ignored');
    send({ type: 'call.dismiss' });
    expect(snapshot().value).toBe('idle');
    expect(text()).toBe('No Active Calls');
    expect(snapshot().context.callId).toBeNull();
  });

  it('a new call after an ignored one rings at once, with nothing of the old call', () => {
    const { send, snapshot, actions } = start();
    send(INCOMING, LOG_CREATED, { type: 'call.ignore' }, SECOND_INCOMING);
    expect(snapshot().value).toBe('ringing');
    expect(snapshot().context).toMatchObject({
      callId: null,
      callSid: 'CA-in-2',
      phoneNumber: '+919000000004',
    });
    expect(actions.createLog).toHaveBeenCalledTimes(2);
    expect(actions.rejectBusy).not.toHaveBeenCalled();
  });

  it('the caller cancelling while it rings: "Call Cancelled", the toast hides, logged Call Cancelled', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING, { type: 'call.remoteEnded', reason: 'cancelled', at: T0 });
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Call Cancelled');
    expect(isIncomingToastVisible(snapshot())).toBe(false);
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(fired().slice(2)).toEqual(['hideIncomingToast', 'updateLog']);
    // generateCall has not answered yet: the adapter sends the update once it has.
    expect(paramsOf(actions.updateLog)[0]).toEqual({
      callId: null,
      callDetails: { callDuration: 0, callStartedAt: null, callStatus: 'Call Cancelled', callEndedAt: null },
    });
  });

  it('an error while ringing: "Error Occured", logged, the toast hides, the log says Call Disconnected', () => {
    const { send, snapshot, text, actions } = start();
    send(INCOMING, ERROR);
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Error Occured');
    expect(actions.hideIncomingToast).toHaveBeenCalledTimes(1);
    expect(paramsOf(actions.logError)).toEqual([{ message: 'ConnectionError (31005)' }]);
    expect(paramsOf(actions.updateLog)[0].callDetails).toEqual({
      callDuration: 0,
      callStartedAt: null,
      callStatus: 'Call Disconnected',
      callEndedAt: null,
    });
  });

  it('accept/reject/ignore without a ringing call are only logged (SPEC §8), in every other state', () => {
    const routes: CallEvent[][] = [
      [],
      [DIAL],
      [INCOMING, ACCEPT],
      [INCOMING, ACCEPT, { type: 'call.reconnecting' }],
      [INCOMING, { type: 'call.ignore' }],
      [INCOMING, { type: 'call.reject' }],
      [INCOMING, { type: 'call.reject' }, { type: 'feedback.rate', rating: 4 }, { type: 'feedback.submit' }],
    ];
    for (const route of routes) {
      const { send, snapshot, actions } = start();
      send(...route);
      const before = snapshot();
      send({ type: 'call.accept', at: T0 + 1 }, { type: 'call.reject' }, { type: 'call.ignore' });
      expect(snapshot().value).toBe(before.value);
      expect(snapshot().context).toEqual(before.context);
      expect(paramsOf(actions.logError)).toEqual([
        { message: NO_ACTIVE_INCOMING },
        { message: NO_ACTIVE_INCOMING },
        { message: NO_ACTIVE_INCOMING },
      ]);
      // The provider is asked only for the call that rang (the route's own accept or reject).
      expect(actions.acceptCall).toHaveBeenCalledTimes(route.includes(ACCEPT) ? 1 : 0);
      expect(actions.rejectCall).toHaveBeenCalledTimes(route.some((e) => e.type === 'call.reject') ? 1 : 0);
      expect(actions.ignoreCall).toHaveBeenCalledTimes(route.some((e) => e.type === 'call.ignore') ? 1 : 0);
    }
  });

  it('rejects a second incoming call as busy while the line is taken, without changing anything', () => {
    const routes: CallEvent[][] = [
      [INCOMING],
      [DIAL],
      [INCOMING, ACCEPT],
      [INCOMING, ACCEPT, { type: 'call.reconnecting' }],
      [INCOMING, { type: 'call.reject' }],
      [INCOMING, { type: 'call.reject' }, { type: 'feedback.rate', rating: 4 }, { type: 'feedback.submit' }],
    ];
    for (const route of routes) {
      const { send, snapshot, actions } = start();
      send(...route);
      const before = snapshot();
      expect(isLineBusy(before)).toBe(true);
      send(SECOND_INCOMING);
      expect(snapshot().value).toBe(before.value);
      expect(snapshot().context).toEqual(before.context);
      expect(paramsOf(actions.rejectBusy)).toEqual([{ callSid: 'CA-in-2', from: '+919000000004' }]);
      expect(actions.showIncomingToast).toHaveBeenCalledTimes(route[0] === INCOMING ? 1 : 0);
    }
  });
});

describe('call statechart: answered calls', () => {
  it('mute and unmute: "Call is Muted", back to "On Call"', () => {
    const { send, snapshot, text, actions } = start();
    send(INCOMING, ACCEPT, { type: 'call.mute' });
    expect(text()).toBe('Call is Muted');
    expect(snapshot().context.muted).toBe(true);
    expect(actions.muteCall).toHaveBeenCalledTimes(1);
    expect(snapshot().can({ type: 'call.mute' })).toBe(false);
    send({ type: 'call.unmute' });
    expect(text()).toBe('On Call');
    expect(snapshot().context.muted).toBe(false);
    expect(actions.unmuteCall).toHaveBeenCalledTimes(1);
    expect(snapshot().can({ type: 'call.unmute' })).toBe(false);
    expect(snapshot().value).toBe('active');
  });

  it('reconnecting: "Reconnecting...", then "Call Reconnected." and still on the call', () => {
    const { send, snapshot, text } = start();
    send(INCOMING, ACCEPT, { type: 'call.reconnecting' });
    expect(snapshot().value).toBe('reconnecting');
    expect(text()).toBe('Reconnecting...');
    expect(snapshot().can({ type: 'call.mute' })).toBe(false);
    send({ type: 'call.reconnected' });
    expect(snapshot().value).toBe('active');
    expect(text()).toBe('Call Reconnected.');
    expect(snapshot().context.startedAt).toBe(T0);
  });

  it('hang-up: "Call Disconnected", end time, duration (rounded seconds), still Connected, the modal opens', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(INCOMING, LOG_CREATED, ACCEPT, { type: 'call.mute' }, HANGUP_LATER);
    expect(snapshot().value).toBe('feedback');
    expect(text()).toBe('Call Disconnected');
    expect(isFeedbackOpen(snapshot())).toBe(true);
    expect(snapshot().context).toMatchObject({ endedAt: T0 + 65_400, durationSeconds: 65, muted: false });
    expect(fired().slice(-2)).toEqual(['hangUp', 'updateLog']);
    const details = {
      callDuration: 65,
      callStartedAt: '2026-11-22T09:00:00.000Z',
      callStatus: 'Connected',
      callEndedAt: '2026-11-22T09:01:05.400Z',
    };
    expect(paramsOf(actions.updateLog).at(-1)).toEqual({ callId: 'log-1', callDetails: details });
    expect(selectCallDetails(snapshot())).toEqual(details);
  });

  it('the other side hanging up (or dropping) ends the same way, without our hangUp', () => {
    for (const reason of ['hangup', 'unavailable'] as const) {
      for (const route of [
        [INCOMING, ACCEPT],
        [DIAL, ANSWERED, { type: 'call.reconnecting' }],
      ] as CallEvent[][]) {
        const { send, snapshot, text, actions } = start();
        send(...route, { type: 'call.remoteEnded', reason, at: T0 + 1_500 });
        expect(snapshot().value).toBe('feedback');
        expect(text()).toBe('Call Disconnected');
        expect(snapshot().context.durationSeconds).toBe(2);
        expect(snapshot().context.callStatus).toBe('Connected');
        expect(actions.hangUp).not.toHaveBeenCalled();
        expect(paramsOf(actions.updateLog).at(-1).callDetails.callEndedAt).toBe(
          new Date(T0 + 1_500).toISOString(),
        );
      }
    }
  });

  it('an error on an answered call: "Error Occured", logged, the log says Call Disconnected with its duration', () => {
    const { send, snapshot, text, actions } = start();
    send(INCOMING, ACCEPT, ERROR);
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Error Occured');
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(paramsOf(actions.logError)).toEqual([{ message: 'ConnectionError (31005)' }]);
    expect(paramsOf(actions.updateLog).at(-1).callDetails).toEqual({
      callDuration: 10,
      callStartedAt: new Date(T0).toISOString(),
      callStatus: 'Call Disconnected',
      callEndedAt: new Date(T0 + 10_000).toISOString(),
    });
    const reconnecting = start();
    reconnecting.send(INCOMING, ACCEPT, { type: 'call.reconnecting' }, ERROR);
    expect(reconnecting.text()).toBe('Error Occured');
  });

  it('durations: whole seconds, rounded, never negative', () => {
    expect(durationSecondsBetween(T0, T0 + 499)).toBe(0);
    expect(durationSecondsBetween(T0, T0 + 500)).toBe(1);
    expect(durationSecondsBetween(T0, T0 + 3_600_000)).toBe(3600);
    expect(durationSecondsBetween(T0, T0 - 2_000)).toBe(0);
  });
});

describe('call statechart: outgoing calls', () => {
  it('dials when the device is ready: "Call Connecting", the number normalised, an OUTGOING log as Not Picked', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(DIAL);
    expect(snapshot().value).toBe('connecting');
    expect(text()).toBe('Call Connecting');
    expect(fired()).toEqual(['makeCall', 'createLog']);
    expect(paramsOf(actions.makeCall)).toEqual([{ number: '+919000000005' }]);
    expect(paramsOf(actions.createLog)).toEqual([
      {
        phoneNumber: '+919000000005',
        referenceType: 'OUTGOING',
        callDetails: { callDuration: 0, callStartedAt: null, callStatus: 'Not Picked', callEndedAt: null },
      },
    ]);
  });

  it('cannot dial with the device not ready or a malformed number: logged "Unable to make call.", stays idle', () => {
    for (const dial of [
      { ...DIAL, deviceReady: false },
      { ...DIAL, number: 'call me' },
      { ...DIAL, number: '12345' },
    ] as CallEvent[]) {
      const { send, snapshot, text, actions } = start();
      send(dial);
      expect(snapshot().value).toBe('idle');
      expect(text()).toBe('No Active Calls');
      expect(paramsOf(actions.logError)).toEqual([{ message: UNABLE_TO_MAKE_CALL }]);
      expect(actions.makeCall).not.toHaveBeenCalled();
      expect(actions.createLog).not.toHaveBeenCalled();
    }
  });

  it('cannot dial while the line is taken (a call or its feedback): logged, nothing changes', () => {
    for (const route of [
      [INCOMING],
      [DIAL],
      [INCOMING, ACCEPT],
      [INCOMING, { type: 'call.reject' }],
    ] as CallEvent[][]) {
      const { send, snapshot, actions } = start();
      send(...route);
      const before = snapshot();
      send(DIAL);
      expect(snapshot().value).toBe(before.value);
      expect(snapshot().context).toEqual(before.context);
      expect(paramsOf(actions.logError)).toEqual([{ message: UNABLE_TO_MAKE_CALL }]);
    }
  });

  it('dials again from the outcome of an ended call', () => {
    const { send, snapshot } = start();
    send(INCOMING, { type: 'call.ignore' }, DIAL);
    expect(snapshot().value).toBe('connecting');
    expect(snapshot().context).toMatchObject({ direction: 'OUTGOING', callSid: null, callId: null });
  });

  it('answered: "Call Connected" with the start time and the provider call id; the log says Connected', () => {
    const { send, snapshot, text, actions } = start();
    send(DIAL, LOG_CREATED, ANSWERED);
    expect(snapshot().value).toBe('active');
    expect(text()).toBe('Call Connected');
    expect(snapshot().context).toMatchObject({ startedAt: T0, callSid: 'CA-out-1', callStatus: 'Connected' });
    expect(paramsOf(actions.updateLog).at(-1)).toEqual({
      callId: 'log-1',
      callDetails: {
        callDuration: 0,
        callStartedAt: new Date(T0).toISOString(),
        callStatus: 'Connected',
        callEndedAt: null,
      },
    });
    send({ type: 'call.mute' }, { type: 'call.unmute' });
    expect(text()).toBe('On Call');
  });

  it('the callee rejects: "Call Rejected", logged Rejected, no feedback modal', () => {
    const { send, snapshot, text, actions } = start();
    send(DIAL, { type: 'call.remoteEnded', reason: 'rejected', at: T0 });
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Call Rejected');
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(paramsOf(actions.updateLog).at(-1).callDetails.callStatus).toBe('Rejected');
  });

  it('not picked up (ignored, unavailable, hung up before answering): "Call Disconnected", logged Not Picked', () => {
    for (const reason of ['ignored', 'unavailable', 'hangup', 'cancelled'] as const) {
      const { send, snapshot, text, actions } = start();
      send(DIAL, { type: 'call.remoteEnded', reason, at: T0 });
      expect(snapshot().value).toBe('ended');
      expect(text()).toBe('Call Disconnected');
      expect(isFeedbackOpen(snapshot())).toBe(false);
      expect(paramsOf(actions.updateLog).at(-1).callDetails).toEqual({
        callDuration: 0,
        callStartedAt: null,
        callStatus: 'Not Picked',
        callEndedAt: null,
      });
    }
  });

  it('a number not in service, or a callee who cannot take calls: the status stays, a notice says why', () => {
    const notices = {
      notInService: 'The number you dialled is not in service.',
      unavailable: 'The person you called cannot take calls right now.',
      ignored: null,
      hangup: null,
      cancelled: null,
    } as const;
    for (const [reason, notice] of Object.entries(notices) as [keyof typeof notices, string | null][]) {
      const { send, snapshot, text, actions } = start();
      send(DIAL, { type: 'call.remoteEnded', reason, at: T0 });
      expect(snapshot().value, reason).toBe('ended');
      // SPEC §4 texts and values unchanged.
      expect(text()).toBe('Call Disconnected');
      expect(paramsOf(actions.updateLog).at(-1).callDetails.callStatus).toBe('Not Picked');
      expect(snapshot().context.notice, reason).toBe(notice);
      // The next call (or dismissing) starts without it.
      send({ type: 'call.dismiss' });
      expect(snapshot().context.notice).toBeNull();
      send(DIAL);
      expect(snapshot().context.notice).toBeNull();
    }
  });

  it('our own cancel while connecting: "Call Cancelled", the provider call ended, logged Call Cancelled', () => {
    const { send, snapshot, text, actions, fired } = start();
    send(DIAL, { type: 'call.hangup', at: T0 });
    expect(snapshot().value).toBe('ended');
    expect(text()).toBe('Call Cancelled');
    expect(fired().slice(-2)).toEqual(['hangUp', 'updateLog']);
    expect(paramsOf(actions.updateLog).at(-1).callDetails.callStatus).toBe('Call Cancelled');
  });

  it('an error while connecting: "Error Occured", logged, the log says Call Disconnected', () => {
    const { send, text, actions } = start();
    send(DIAL, ERROR);
    expect(text()).toBe('Error Occured');
    expect(paramsOf(actions.logError)).toEqual([{ message: 'ConnectionError (31005)' }]);
    expect(paramsOf(actions.updateLog).at(-1).callDetails.callStatus).toBe('Call Disconnected');
  });

  it('an error with no call is only logged', () => {
    for (const route of [
      [],
      [INCOMING, { type: 'call.ignore' }],
      [INCOMING, { type: 'call.reject' }],
    ] as CallEvent[][]) {
      const { send, snapshot, actions } = start();
      send(...route);
      const before = snapshot();
      send(ERROR);
      expect(snapshot().value).toBe(before.value);
      expect(snapshot().context).toEqual(before.context);
      expect(paramsOf(actions.logError)).toEqual([{ message: 'ConnectionError (31005)' }]);
      expect(actions.updateLog).toHaveBeenCalledTimes(route.length ? 1 : 0);
    }
  });
});

describe('call statechart: feedback', () => {
  function afterHangUp() {
    const call = start();
    call.send(INCOMING, LOG_CREATED, ACCEPT, HANGUP_LATER);
    return call;
  }

  it('rates and writes, submits callDetails and feedbackData, then clears the call id, the text and the modal', () => {
    const { send, snapshot, text, actions } = afterHangUp();
    send(
      { type: 'feedback.rate', rating: 4 },
      { type: 'feedback.change', text: '  Asked about the invoice  ' },
    );
    expect(snapshot().context.feedback).toEqual({
      open: true,
      rating: 4,
      text: '  Asked about the invoice  ',
      error: null,
    });
    send({ type: 'feedback.submit' });
    expect(snapshot().value).toBe('submittingFeedback');
    expect(isFeedbackOpen(snapshot())).toBe(true);
    expect(paramsOf(actions.submitFeedback)).toEqual([
      {
        callId: 'log-1',
        callDetails: {
          callDuration: 65,
          callStartedAt: '2026-11-22T09:00:00.000Z',
          callStatus: 'Connected',
          callEndedAt: '2026-11-22T09:01:05.400Z',
        },
        feedbackData: { rating: 4, text: 'Asked about the invoice' },
      },
    ]);
    expect(snapshot().can({ type: 'feedback.submit' })).toBe(false);
    send({ type: 'feedback.submitted' });
    expect(snapshot().value).toBe('idle');
    expect(text()).toBe(CALLING_STATUS.idle);
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(snapshot().context).toMatchObject({
      callId: null,
      feedback: { open: false, rating: null, text: '', error: null },
    });
  });

  it('needs a rating of 1 to 5 to submit (feedbackData requires one)', () => {
    const { send, snapshot, actions } = afterHangUp();
    expect(snapshot().can({ type: 'feedback.submit' })).toBe(false);
    for (const rating of [0, 6, 2.5]) {
      expect(snapshot().can({ type: 'feedback.rate', rating })).toBe(false);
    }
    send({ type: 'feedback.rate', rating: 1 }, { type: 'feedback.change', text: 'x'.repeat(2001) });
    expect(snapshot().can({ type: 'feedback.submit' })).toBe(false);
    send({ type: 'feedback.change', text: '' }, { type: 'feedback.submit' });
    expect(paramsOf(actions.submitFeedback)[0].feedbackData).toEqual({ rating: 1, text: '' });
  });

  it('a failed submit keeps the modal open with the error (e.g. an unknown call id); a retry clears it', () => {
    const { send, snapshot, actions } = afterHangUp();
    send(
      { type: 'feedback.rate', rating: 5 },
      { type: 'feedback.submit' },
      { type: 'feedback.failed', message: 'Call not found' },
    );
    expect(snapshot().value).toBe('feedback');
    expect(isFeedbackOpen(snapshot())).toBe(true);
    expect(snapshot().context.feedback).toMatchObject({ rating: 5, error: 'Call not found' });
    expect(snapshot().context.callId).toBe('log-1');
    send({ type: 'feedback.submit' });
    expect(snapshot().context.feedback.error).toBeNull();
    expect(actions.submitFeedback).toHaveBeenCalledTimes(2);
  });

  it('skip closes the modal without sending and frees the line', () => {
    const { send, snapshot, actions } = afterHangUp();
    send({ type: 'feedback.rate', rating: 3 }, { type: 'feedback.skip' });
    expect(snapshot().value).toBe('idle');
    expect(isFeedbackOpen(snapshot())).toBe(false);
    expect(snapshot().context.callId).toBeNull();
    expect(actions.submitFeedback).not.toHaveBeenCalled();
  });

  it('the feedback after a rejected incoming call sends the Rejected details', () => {
    const { send, actions } = start();
    send(
      INCOMING,
      LOG_CREATED,
      { type: 'call.reject' },
      { type: 'feedback.rate', rating: 2 },
      { type: 'feedback.submit' },
    );
    expect(paramsOf(actions.submitFeedback)[0]).toMatchObject({
      callId: 'log-1',
      callDetails: { callStatus: 'Rejected', callDuration: 0 },
    });
  });
});

describe('call statechart: texts', () => {
  it('every SPEC calling status text is reachable, exactly as written', () => {
    const routes: Record<keyof typeof CALLING_STATUS, CallEvent[]> = {
      idle: [],
      incoming: [INCOMING],
      connecting: [DIAL],
      onCall: [INCOMING, ACCEPT],
      connected: [DIAL, ANSWERED],
      muted: [DIAL, ANSWERED, { type: 'call.mute' }],
      reconnecting: [DIAL, ANSWERED, { type: 'call.reconnecting' }],
      reconnected: [DIAL, ANSWERED, { type: 'call.reconnecting' }, { type: 'call.reconnected' }],
      rejected: [INCOMING, { type: 'call.reject' }],
      ignored: [INCOMING, { type: 'call.ignore' }],
      cancelled: [DIAL, { type: 'call.hangup', at: T0 }],
      disconnected: [DIAL, ANSWERED, HANGUP_LATER],
      error: [DIAL, ERROR],
    };
    for (const [key, route] of Object.entries(routes)) {
      const { send, text } = start();
      send(...route);
      expect(text()).toBe(CALLING_STATUS[key as keyof typeof CALLING_STATUS]);
    }
  });
});

describe('call statechart as a test model', () => {
  // One sample of each event; the `at` values are fixed, so the context (and the graph) stays finite.
  const sampleEvents: CallEvent[] = [
    INCOMING,
    LOG_CREATED,
    ACCEPT,
    { type: 'call.reject' },
    { type: 'call.ignore' },
    { type: 'call.remoteEnded', reason: 'hangup', at: T0 + 65_400 },
    { type: 'call.remoteEnded', reason: 'rejected', at: T0 + 1_000 },
    { type: 'call.remoteEnded', reason: 'notInService', at: T0 + 1_000 },
    DIAL,
    { ...DIAL, deviceReady: false },
    ANSWERED,
    HANGUP_LATER,
    ERROR,
    { type: 'call.mute' },
    { type: 'call.unmute' },
    { type: 'call.reconnecting' },
    { type: 'call.reconnected' },
    { type: 'call.dismiss' },
    { type: 'feedback.rate', rating: 4 },
    { type: 'feedback.change', text: 'Asked about the invoice' },
    { type: 'feedback.submit' },
    { type: 'feedback.skip' },
    { type: 'feedback.submitted' },
    { type: 'feedback.failed', message: 'Call not found' },
  ];
  const model = createTestModel(callMachine, {
    events: sampleEvents,
    filterEvents: (snapshot, event) => snapshot.can(event),
  });

  it('is accepted by createTestModel: finite shortest paths reaching every state', () => {
    const shortest = model.getShortestPaths();
    const visited = new Set(shortest.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...visited].sort()).toEqual(Object.keys(callMachine.root.states).sort());
    // The counts the report quotes: graph nodes are state × context (call id known or not, direction,
    // texts, mute, feedback) × the event that led there.
    expect(Object.keys(model.getAdjacencyMap()).length).toBe(260);
    expect(shortest.length).toBe(165);
  });

  it('reaches every transition of every state with the sample events', () => {
    const taken = transitionIdsOfGraph(callMachine, model.getAdjacencyMap());
    expect([...taken].sort()).toEqual(allTransitionIds(callMachine).sort());
  });
});
