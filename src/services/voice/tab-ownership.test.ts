// One tab owns the call: several "tabs" of one user in one test, sharing a fake Web Locks manager and a
// fake BroadcastChannel. Each tab's session is the real pair of statecharts (no device behind them), so
// the mirror is checked against the texts the call UI shows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { CALLING_STATUS } from '../../../contracts/calls';
import { callMachine } from '../../machines/call.machine';
import { voiceDeviceMachine } from '../../machines/voice-device.machine';
import {
  createTabOwnership,
  ownedSessionOf,
  TAKEOVER_NO_ANSWER,
  TAKEOVER_REFUSED_BUSY,
  type TabOwnership,
  type TabView,
  voiceLockName,
} from './tab-ownership';
import { FakeChannelHub, FakeLocks } from './tab-ownership-fakes';

const USER = 'user-1';
const LOCK = voiceLockName(USER);

function fakeHandle() {
  const device = createActor(voiceDeviceMachine).start();
  const call = createActor(callMachine).start();
  return {
    device,
    call,
    stop: vi.fn(() => {
      device.stop();
      call.stop();
    }),
  };
}
type FakeHandle = ReturnType<typeof fakeHandle>;

interface Tab {
  name: string;
  ownership: TabOwnership;
  view: () => TabView;
  /** Every session this tab started, in order. */
  started: FakeHandle[];
  /** The running session, if any. */
  current: () => FakeHandle | null;
}

let tabs: Tab[] = [];

function openTab(
  name: string,
  locks: FakeLocks | null,
  hub: FakeChannelHub,
  options: { answerTimeoutMs?: number; handoverTimeoutMs?: number } = {},
): Tab {
  const started: FakeHandle[] = [];
  let current: FakeHandle | null = null;
  const ownership = createTabOwnership({
    userId: USER,
    tabId: name,
    locks: locks ? locks.forTab(name) : null,
    openChannel: hub.forTab(name),
    start: async () => {
      const handle = fakeHandle();
      started.push(handle);
      return ownedSessionOf(handle);
    },
    onChange: (_view, session) => {
      current = session?.handle ?? null;
    },
    ...options,
  });
  const tab = { name, ownership, view: () => ownership.view(), started, current: () => current };
  tabs.push(tab);
  return tab;
}

/** The browser closes a tab: no code of it runs, its lock and channel go. */
function closeTab(tab: Tab, locks: FakeLocks, hub: FakeChannelHub) {
  hub.closeTab(tab.name);
  locks.closeTab(tab.name);
  tabs = tabs.filter((other) => other !== tab);
}

const ring = (handle: FakeHandle, from = '+91 90000 00002') =>
  handle.call.send({ type: 'call.incoming', callSid: 'CA1', from });

afterEach(() => {
  for (const tab of tabs) tab.ownership.dispose();
  tabs = [];
});

describe('one tab owns the call', () => {
  it('of two tabs exactly one is the owner and starts the device; the other mirrors its state', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);

    await vi.waitFor(() => expect(a.current()).not.toBeNull());
    expect(a.view().role).toBe('owner');
    expect(locks.holder(LOCK)).toBe('A');
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));
    expect(b.started).toHaveLength(0);
    expect(b.view().mirror).toMatchObject({
      deviceStatusText: "Device isn't ready yet",
      deviceState: 'notReady',
      callingStatusText: 'No Active Calls',
      callState: 'idle',
      incoming: null,
      feedbackOpen: false,
      busy: false,
    });
    (a.current() as FakeHandle).device.send({ type: 'device.setup', hasToken: true });
    await vi.waitFor(() => expect(b.view().mirror?.deviceStatusText).toBe('Registering Device'));

    // Every change of the owner's actors reaches the mirror: the call rings in A only.
    ring(a.current() as FakeHandle, '+91 90000 00002');
    await vi.waitFor(() => expect(b.view().mirror?.incoming).toEqual({ from: '+91 90000 00002' }));
    expect(b.view().mirror).toMatchObject({ callingStatusText: CALLING_STATUS.incoming, busy: true });
    (a.current() as FakeHandle).call.send({ type: 'call.accept', at: 1_000 });
    await vi.waitFor(() => expect(b.view().mirror?.incoming).toBeNull());
    expect(b.view().mirror).toMatchObject({ startedAt: 1_000, phoneNumber: '+91 90000 00002', busy: true });
  });

  it('a tab opened later gets the current state at once (hello), not only on the next change', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    await vi.waitFor(() => expect(a.current()).not.toBeNull());
    ring(a.current() as FakeHandle);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().mirror?.incoming).toEqual({ from: '+91 90000 00002' }));
  });

  it('take-over is refused while the owner has a call in progress, with the reason', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));
    const owned = a.current() as FakeHandle;
    ring(owned);
    owned.call.send({ type: 'call.accept', at: 1_000 });

    b.ownership.takeOver();
    expect(b.view().takeover.status).toBe('asking');
    await vi.waitFor(() =>
      expect(b.view().takeover).toEqual({ status: 'refused', reason: TAKEOVER_REFUSED_BUSY }),
    );
    expect(a.view().role).toBe('owner');
    expect(owned.stop).not.toHaveBeenCalled();
    expect(locks.holder(LOCK)).toBe('A');
    expect(b.started).toHaveLength(0);
  });

  it('take-over is accepted when the owner is idle: it stops, the requester owns and starts', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));
    const first = a.current() as FakeHandle;

    b.ownership.takeOver();
    await vi.waitFor(() => expect(b.current()).not.toBeNull());
    expect(first.stop).toHaveBeenCalledTimes(1);
    expect(b.view()).toMatchObject({ role: 'owner', takeover: { status: 'idle', reason: null } });
    expect(locks.holder(LOCK)).toBe('B');
    // A queues again and now mirrors B.
    await vi.waitFor(() => expect(a.view()).toMatchObject({ role: 'mirror', mirror: { busy: false } }));
    expect(a.current()).toBeNull();
    ring(b.current() as FakeHandle, '+91 90000 00003');
    await vi.waitFor(() => expect(a.view().mirror?.incoming).toEqual({ from: '+91 90000 00003' }));

    // And back: A takes it over again while B is idle... after B's call ended.
    (b.current() as FakeHandle).call.send({ type: 'call.ignore' });
    await vi.waitFor(() => expect(a.view().mirror?.busy).toBe(false));
    a.ownership.takeOver();
    await vi.waitFor(() => expect(a.current()).not.toBeNull());
    expect(locks.holder(LOCK)).toBe('A');
    expect(b.started[0]?.stop).toHaveBeenCalledTimes(1);
  });

  it('with three tabs the requester gets the device, not the tab queued before it', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    const c = openTab('C', locks, hub);
    await vi.waitFor(() => expect(c.view().role).toBe('mirror'));

    c.ownership.takeOver();
    await vi.waitFor(() => expect(c.current()).not.toBeNull());
    expect(locks.holder(LOCK)).toBe('C');
    expect(b.started).toHaveLength(0);
    await vi.waitFor(() => expect(a.view().role).toBe('mirror'));
    expect(b.view().role).toBe('mirror');
  });

  it('closing the owner tab: the other tab acquires the lock and starts the device', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));

    closeTab(a, locks, hub);
    await vi.waitFor(() => expect(b.current()).not.toBeNull());
    expect(b.view().role).toBe('owner');
    expect(locks.holder(LOCK)).toBe('B');
  });

  it('closing a mirror tab changes nothing for the owner, even during a call', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));
    const owned = a.current() as FakeHandle;
    ring(owned);
    owned.call.send({ type: 'call.accept', at: 1_000 });

    closeTab(b, locks, hub);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.view().role).toBe('owner');
    expect(owned.stop).not.toHaveBeenCalled();
    expect(owned.call.getSnapshot().value).toBe('active');
    expect(locks.holder(LOCK)).toBe('A');
  });

  it('the owner signing out (dispose) stops its session and hands the device to the next tab', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub);
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));
    const owned = a.current() as FakeHandle;

    a.ownership.dispose();
    expect(owned.stop).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(b.current()).not.toBeNull());
    expect(hub.posted).toContainEqual({ type: 'released', from: 'A' });
  });

  it('an owner that stepped down takes the device back when the requester never takes it', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const a = openTab('A', locks, hub, { handoverTimeoutMs: 30 });
    const b = openTab('B', locks, hub);
    await vi.waitFor(() => expect(b.view().role).toBe('mirror'));

    b.ownership.takeOver();
    // B goes before it reads the answer.
    closeTab(b, locks, hub);
    await vi.waitFor(() => expect(a.started).toHaveLength(2));
    expect(a.view().role).toBe('owner');
    expect(a.current()).toBe(a.started[1]);
    expect(locks.holder(LOCK)).toBe('A');
  });

  it('a take-over nobody answers fails with a reason', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    // The lock is held by a tab that posted its state once and answers nothing more.
    void locks.forTab('X').request(LOCK, {}, () => new Promise(() => {}));
    const c = openTab('C', locks, hub, { answerTimeoutMs: 30 });
    hub
      .forTab('X')('mp-voice:user-1')
      .postMessage({
        type: 'state',
        from: 'X',
        mirror: {
          deviceStatusText: 'Disconnected',
          deviceState: 'disconnected',
          callingStatusText: '',
          callState: 'idle',
          incoming: null,
          feedbackOpen: false,
          startedAt: null,
          phoneNumber: null,
          busy: false,
        },
      });
    await vi.waitFor(() => expect(c.view().role).toBe('mirror'));
    c.ownership.takeOver();
    await vi.waitFor(() =>
      expect(c.view().takeover).toEqual({ status: 'refused', reason: TAKEOVER_NO_ANSWER }),
    );
    expect(c.started).toHaveLength(0);
  });

  it('without Web Locks every tab is the owner (the fallback)', async () => {
    const hub = new FakeChannelHub();
    const a = openTab('A', null, hub);
    const b = openTab('B', null, hub);
    await vi.waitFor(() => expect(a.current()).not.toBeNull());
    await vi.waitFor(() => expect(b.current()).not.toBeNull());
    expect(a.view().role).toBe('owner');
    expect(b.view().role).toBe('owner');
  });

  it('a session that finishes loading after the tab was closed is stopped at once', async () => {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    type Session = ReturnType<typeof ownedSessionOf<FakeHandle>>;
    let resolveStart: (session: Session) => void = () => {};
    const ownership = createTabOwnership({
      userId: USER,
      tabId: 'A',
      locks: locks.forTab('A'),
      openChannel: hub.forTab('A'),
      start: () =>
        new Promise<Session>((resolve) => {
          resolveStart = resolve;
        }),
      onChange: () => {},
    });
    await vi.waitFor(() => expect(ownership.view().role).toBe('owner'));
    ownership.dispose();
    const late = fakeHandle();
    resolveStart(ownedSessionOf(late));
    await vi.waitFor(() => expect(late.stop).toHaveBeenCalledTimes(1));
    expect(locks.holder(LOCK)).toBeNull();
  });
});
