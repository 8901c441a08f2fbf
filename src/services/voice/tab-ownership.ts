// One tab owns the call (issue 6): with several tabs of the same user open, exactly one of them holds
// the voice device (rings, answers, dials); the others mirror its state and can take the device over.
//
// - Leader election with the Web Locks API: every tab asks for the lock `mp-voice-device:{userId}` and
//   holds it for its whole life; the holder is the owner. The browser releases a closed tab's lock, so
//   the next tab in the queue is granted it and starts the device: closing a tab never drops the call
//   of another tab (a mirror tab holds nothing; a closed owner had the only call).
// - Without Web Locks (old browsers, jsdom) every tab behaves as the owner, as before this module: the
//   server's "last register wins" then decides which tab rings.
// - The owner posts a compact mirror of its device and call state on the BroadcastChannel
//   `mp-voice:{userId}` on every change; a tab that opens asks for it ("hello"). Without
//   BroadcastChannel a mirror tab knows only that another tab owns the device.
// - Take over: a mirror asks the owner to step down. With a call in progress (isLineBusy: ringing, on a
//   call, or its feedback still open) the owner refuses with a reason. Otherwise it stops its session
//   and answers "accepted"; the requester then steals the lock (`steal: true`, so a third tab queued
//   earlier cannot get in between) and starts. The old owner's held lock is taken from it, and it
//   queues again as a mirror. Should the requester never steal (it closed meanwhile), the old owner
//   starts its device again after `handoverTimeoutMs`.
//
// The module knows nothing of React nor of how the session starts: `start` is given, so it is tested
// with fake locks and channels (tab-ownership.test.ts).
import type { ActorRefFrom } from 'xstate';
import {
  type CallMachine,
  isFeedbackOpen,
  isIncomingToastVisible,
  isLineBusy,
} from '../../machines/call.machine';
import { selectDeviceStatusText, type VoiceDeviceMachine } from '../../machines/voice-device.machine';

export const voiceLockName = (userId: string) => `mp-voice-device:${userId}`;
export const voiceChannelName = (userId: string) => `mp-voice:${userId}`;

/** Why a take-over was refused while the owner's line is busy. */
export const TAKEOVER_REFUSED_BUSY = 'A call is in progress on the other tab. Try again once it has ended.';
/** Why a take-over failed when no owner answered. */
export const TAKEOVER_NO_ANSWER = 'The other tab did not answer. Try again.';

/** What a mirror tab shows of the owner's device and call. */
export interface VoiceMirror {
  deviceStatusText: string;
  /** the voice-device statechart's state (the status dot's colour) */
  deviceState: string;
  callingStatusText: string;
  /** why the last outgoing call rang no one (the call statechart's `notice`) */
  notice?: string | null;
  /** the call statechart's state */
  callState: string;
  incoming: { from: string } | null;
  feedbackOpen: boolean;
  startedAt: number | null;
  /** the other party's number of the current (or last) call */
  phoneNumber: string | null;
  /** a call (or its feedback) holds the line: the owner refuses to step down */
  busy: boolean;
}

export type TabOwnershipMessage =
  | { type: 'hello'; from: string }
  | { type: 'state'; from: string; mirror: VoiceMirror }
  | { type: 'released'; from: string }
  | { type: 'takeover.request'; from: string }
  | { type: 'takeover.refused'; from: string; to: string; reason: string }
  | { type: 'takeover.accepted'; from: string; to: string };

/** The running voice session of the owner tab, as this module needs it. */
export interface OwnedSession {
  mirror(): VoiceMirror;
  /** Calls back on every change of the mirror's inputs. */
  subscribe(onChange: () => void): () => void;
  stop(): void;
}

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(
    name: string,
    options: { signal?: AbortSignal; steal?: boolean },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: TabOwnershipMessage): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/**
 * What this tab is: `pending` until the lock is granted or an owner is heard of, `owner` (runs the
 * device), or `mirror` (shows the owner's state; `mirror` null until the owner posted it).
 */
export interface TabView {
  role: 'pending' | 'owner' | 'mirror';
  mirror: VoiceMirror | null;
  takeover: { status: 'idle' | 'asking' | 'refused'; reason: string | null };
}

export interface TabOwnershipOptions<S extends OwnedSession> {
  userId: string;
  /** Starts the device in this tab (it became the owner). */
  start: () => Promise<S>;
  onChange: (view: TabView, session: S | null) => void;
  /** navigator.locks by default; null: no Web Locks (this tab is the owner) */
  locks?: LockManagerLike | null;
  /** a BroadcastChannel by default; null: no channel */
  openChannel?: ((name: string) => ChannelLike) | null;
  tabId?: string;
  /** How long a take-over waits for the owner's answer. */
  answerTimeoutMs?: number;
  /** How long an owner that stepped down waits for the requester to take the lock. */
  handoverTimeoutMs?: number;
}

export interface TabOwnership {
  view(): TabView;
  /** A mirror tab asks the owner to step down and takes the device. */
  takeOver(): void;
  dispose(): void;
}

function defaultLocks(): LockManagerLike | null {
  if (typeof navigator === 'undefined') return null;
  const locks = (navigator as { locks?: LockManagerLike }).locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

function defaultOpenChannel(): ((name: string) => ChannelLike) | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  return (name) => new BroadcastChannel(name) as unknown as ChannelLike;
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

function isMessage(data: unknown): data is TabOwnershipMessage {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}

export function createTabOwnership<S extends OwnedSession>(options: TabOwnershipOptions<S>): TabOwnership {
  const locks = options.locks === undefined ? defaultLocks() : options.locks;
  const openChannel = options.openChannel === undefined ? defaultOpenChannel() : options.openChannel;
  const tabId = options.tabId ?? globalThis.crypto?.randomUUID?.() ?? String(Math.random()).slice(2);
  const answerTimeoutMs = options.answerTimeoutMs ?? 3000;
  const handoverTimeoutMs = options.handoverTimeoutMs ?? 5000;
  const lockName = voiceLockName(options.userId);

  let disposed = false;
  let view: TabView = { role: 'pending', mirror: null, takeover: { status: 'idle', reason: null } };
  let session: S | null = null;
  let unsubscribeSession: (() => void) | null = null;
  let lastPosted = '';
  /** Ends the lock's callback: the lock is released. */
  let releaseLock: (() => void) | null = null;
  /** Withdraws this tab's queued (not yet granted) lock request. */
  let queued: AbortController | null = null;
  let answerTimer: ReturnType<typeof setTimeout> | null = null;
  let handoverTimer: ReturnType<typeof setTimeout> | null = null;

  const channel = openChannel ? openChannel(voiceChannelName(options.userId)) : null;
  const post = (message: TabOwnershipMessage) => {
    try {
      channel?.postMessage(message);
    } catch {
      // A closed channel (the page is going away): the other tabs learn from the lock instead.
    }
  };

  function update(next: Partial<TabView>) {
    view = { ...view, ...next };
    if (!disposed) options.onChange(view, session);
  }

  function clearTimer(timer: ReturnType<typeof setTimeout> | null) {
    if (timer !== null) clearTimeout(timer);
  }

  // --- the owner ------------------------------------------------------------------------------------
  function postState(force = false) {
    if (!session) return;
    const mirror = session.mirror();
    const serialised = JSON.stringify(mirror);
    if (!force && serialised === lastPosted) return;
    lastPosted = serialised;
    post({ type: 'state', from: tabId, mirror });
  }

  /** This tab holds the lock: start the device (once loaded, unless it lost the lock meanwhile). */
  function becomeOwner() {
    update({ role: 'owner', mirror: null, takeover: { status: 'idle', reason: null } });
    const granted = releaseLock;
    options.start().then(
      (started) => {
        if (disposed || releaseLock !== granted || releaseLock === null) {
          started.stop();
          return;
        }
        session = started;
        unsubscribeSession = started.subscribe(() => postState());
        update({});
        postState(true);
      },
      (error: unknown) => console.error('Could not start the voice service', error),
    );
  }

  function stopSession() {
    unsubscribeSession?.();
    unsubscribeSession = null;
    const running = session;
    session = null;
    lastPosted = '';
    running?.stop();
  }

  /** Asks for the lock and holds it until `releaseLock` is called (or it is stolen). */
  function acquire(steal: boolean) {
    if (!locks) return;
    const controller = new AbortController();
    queued = steal ? null : controller;
    let heldRelease: (() => void) | null = null;
    locks
      .request(lockName, steal ? { steal: true } : { signal: controller.signal }, () => {
        if (queued === controller) queued = null;
        if (disposed) return Promise.resolve();
        return new Promise<void>((resolve) => {
          heldRelease = resolve;
          releaseLock = resolve;
          becomeOwner();
        });
      })
      .catch((error: unknown) => {
        if (!isAbort(error)) {
          console.error('The voice device lock failed', error);
          return;
        }
        // Stolen by a tab that took over (or our queued request withdrawn): nothing more is ours.
        if (heldRelease !== null && releaseLock === heldRelease) {
          releaseLock = null;
          clearTimer(handoverTimer);
          handoverTimer = null;
          stopSession();
          if (!disposed) {
            update({ role: 'mirror', mirror: null });
            acquire(false);
          }
        }
      });
  }

  /** The owner steps down for `requester`, who steals the lock next. */
  function handOver(requester: string) {
    stopSession();
    post({ type: 'released', from: tabId });
    post({ type: 'takeover.accepted', from: tabId, to: requester });
    update({ role: 'mirror', mirror: null });
    // The requester may have gone meanwhile: then this tab takes the device again.
    const held = releaseLock;
    clearTimer(handoverTimer);
    handoverTimer = setTimeout(() => {
      handoverTimer = null;
      if (!disposed && releaseLock === held && held !== null) becomeOwner();
    }, handoverTimeoutMs);
  }

  // --- the messages ---------------------------------------------------------------------------------
  function onMessage(event: { data: unknown }) {
    const message = event.data;
    if (disposed || !isMessage(message) || message.from === tabId) return;
    switch (message.type) {
      case 'hello':
        if (session) postState(true);
        break;
      case 'state':
        if (view.role !== 'owner') update({ role: 'mirror', mirror: message.mirror });
        break;
      case 'released':
        if (view.role !== 'owner') update({ mirror: null });
        break;
      case 'takeover.request':
        if (view.role !== 'owner' || !session) break;
        if (session.mirror().busy) {
          post({ type: 'takeover.refused', from: tabId, to: message.from, reason: TAKEOVER_REFUSED_BUSY });
        } else {
          handOver(message.from);
        }
        break;
      case 'takeover.refused':
        if (message.to !== tabId) break;
        clearTimer(answerTimer);
        answerTimer = null;
        update({ takeover: { status: 'refused', reason: message.reason } });
        break;
      case 'takeover.accepted':
        if (message.to !== tabId || view.role === 'owner') break;
        clearTimer(answerTimer);
        answerTimer = null;
        // Out of the queue, then the lock, taken from the owner that stepped down.
        queued?.abort();
        queued = null;
        update({ takeover: { status: 'idle', reason: null } });
        acquire(true);
        break;
    }
  }

  channel?.addEventListener('message', onMessage);

  if (locks) {
    acquire(false);
    post({ type: 'hello', from: tabId });
  } else {
    // No Web Locks: no election; this tab is the owner, as every tab was before.
    releaseLock = () => {};
    becomeOwner();
  }

  return {
    view: () => view,
    takeOver() {
      if (disposed || view.role === 'owner' || view.takeover.status === 'asking') return;
      update({ takeover: { status: 'asking', reason: null } });
      post({ type: 'takeover.request', from: tabId });
      clearTimer(answerTimer);
      answerTimer = setTimeout(() => {
        answerTimer = null;
        if (view.takeover.status === 'asking')
          update({ takeover: { status: 'refused', reason: TAKEOVER_NO_ANSWER } });
      }, answerTimeoutMs);
    },
    dispose() {
      if (disposed) return;
      const wasOwner = session !== null;
      disposed = true;
      clearTimer(answerTimer);
      clearTimer(handoverTimer);
      stopSession();
      if (wasOwner) post({ type: 'released', from: tabId });
      queued?.abort();
      queued = null;
      const release = releaseLock;
      releaseLock = null;
      release?.();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}

/** The actors of a running voice session (VoiceHandle), as an OwnedSession. */
export function ownedSessionOf<
  H extends {
    device: ActorRefFrom<VoiceDeviceMachine>;
    call: ActorRefFrom<CallMachine>;
    stop(): void;
  },
>(handle: H): OwnedSession & { handle: H } {
  return {
    handle,
    mirror: () => mirrorOf(handle.device.getSnapshot(), handle.call.getSnapshot()),
    subscribe(onChange) {
      const device = handle.device.subscribe(onChange);
      const call = handle.call.subscribe(onChange);
      return () => {
        device.unsubscribe();
        call.unsubscribe();
      };
    },
    stop: () => handle.stop(),
  };
}

type DeviceSnapshot = ReturnType<ActorRefFrom<VoiceDeviceMachine>['getSnapshot']>;
type CallSnapshot = ReturnType<ActorRefFrom<CallMachine>['getSnapshot']>;

/** The compact, serialisable mirror of the owner's device and call. */
export function mirrorOf(device: DeviceSnapshot, call: CallSnapshot): VoiceMirror {
  return {
    deviceStatusText: selectDeviceStatusText(device),
    deviceState: String(device.value),
    callingStatusText: call.context.statusText,
    notice: call.context.notice,
    callState: String(call.value),
    incoming: isIncomingToastVisible(call) ? { from: call.context.phoneNumber ?? '' } : null,
    feedbackOpen: isFeedbackOpen(call),
    startedAt: call.context.startedAt,
    phoneNumber: call.context.phoneNumber,
    busy: isLineBusy(call),
  };
}
