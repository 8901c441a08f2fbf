// The shell's voice wiring (SPEC §5): the voice service is loaded and started only with the call-service
// flag "true" and a signed-in user, stopped on sign-out and unmount; otherwise nothing of it is drawn and
// its module is never imported. The service is replaced by a fake whose actors are the real statecharts.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { authMachine } from '../../machines/auth.machine';
import { callMachine } from '../../machines/call.machine';
import { voiceDeviceMachine } from '../../machines/voice-device.machine';
import { AuthActorProvider } from '../../services/auth-context';
import { configureHttp, http } from '../../services/http';
import { toStoredAuth } from '../../services/stored-auth';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter } from '../../services/testing/fake-adapter';
import { TAKEOVER_REFUSED_BUSY } from '../../services/voice/tab-ownership';
import { FakeChannelHub, FakeLocks } from '../../services/voice/tab-ownership-fakes';
import { system } from '../../ui/theme';
import { HeaderCallButton, VoiceProvider, type VoiceTabSeams } from './VoiceProvider';
import type { VoiceHandle } from './voice-handle';

const voice = vi.hoisted(() => ({
  /** How often the module was evaluated, i.e. imported. */
  loads: 0,
  fail: false,
  handles: [] as (VoiceHandle & { stop: ReturnType<typeof vi.fn> })[],
}));

/** The fake voice module; registered afresh before each test, so each test counts its own imports. */
function fakeVoiceModule() {
  voice.loads += 1;
  if (voice.fail) throw new Error('chunk failed to load');
  return {
    startVoice: () => {
      const device = createActor(voiceDeviceMachine).start();
      const call = createActor(callMachine).start();
      const handle = {
        device,
        call,
        info: () => ({ phoneNumber: '+91 90000 00001', provider: 'local' as const }),
        stop: vi.fn(() => {
          device.stop();
          call.stop();
        }),
      };
      voice.handles.push(handle);
      return handle;
    },
  };
}

const user = makeCurrentUser();
let callServiceEnabled: 'true' | 'false';
/** The signed-in user's effective permissions, as getSidebarData answers them. */
let permissions: Record<string, string[]>;
const CALLER: Record<string, string[]> = { '/': ['view'], '/calls/call-history': ['view', 'edit'] };
let requested: string[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

function signedIn() {
  const auth = createActor(authMachine).start();
  auth.send({ type: 'auth.restored', auth: toStoredAuth({ accessToken: 'token-1', expiresIn: 900, user }) });
  return auth;
}

function renderProvider(auth = signedIn(), tabSeams?: VoiceTabSeams) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <ChakraProvider value={system}>
      <AuthActorProvider actor={auth}>
        <QueryClientProvider client={client}>
          <VoiceProvider tabSeams={tabSeams}>
            <p>page</p>
            <HeaderCallButton />
          </VoiceProvider>
        </QueryClientProvider>
      </AuthActorProvider>
    </ChakraProvider>,
  );
  return { auth, view, client };
}

const runtimeConfigLoaded = (client: QueryClient) =>
  waitFor(() => {
    expect(client.getQueryState(['runtime-config'])?.status).toBe('success');
    expect(client.getQueryState(['session', 'sidebar'])?.status).toBe('success');
  });
/** Lets a pending dynamic import settle. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

beforeEach(() => {
  // A fresh registration and module registry: the next dynamic import evaluates the fake again.
  vi.resetModules();
  vi.doMock('../../services/voice', fakeVoiceModule);
  voice.loads = 0;
  voice.fail = false;
  voice.handles.length = 0;
  callServiceEnabled = 'true';
  permissions = CALLER;
  requested = [];
  http.defaults.adapter = createFakeAdapter((request) => {
    requested.push(request.url ?? '');
    if (request.url === '/api/v1/users/getSidebarData')
      return { status: 200, data: { menu: [], permissions, usingDefaultPermissions: false } };
    if (request.url === '/api/v1/globalConfigs/runtime')
      return {
        status: 200,
        data: { callServiceEnabled, mqttTopicPrefix: 'mp', mqttUrl: null, mqttKeepaliveSeconds: 120 },
      };
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  }).adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the voice provider', () => {
  it('with the call service "false": no call UI, and the voice module is never imported', async () => {
    callServiceEnabled = 'false';
    const { client } = renderProvider();
    await runtimeConfigLoaded(client);
    await settle();
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
    expect(voice.loads).toBe(0);
    expect(voice.handles).toHaveLength(0);
  });

  it.each([
    // getSidebarData gives a blocked seller only their subscription page.
    ['a blocked seller', { '/sellers/payment-seller-subscriptions': ['view', 'create'] }],
    ['a user whose permissions lack the calls page', { '/': ['view'], '/sellers/manage-sellers': ['view'] }],
  ])('for %s: no phone, no voice module, no voice token', async (_, granted) => {
    permissions = granted;
    const { client } = renderProvider();
    await runtimeConfigLoaded(client);
    await settle();
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
    expect(voice.loads).toBe(0);
    expect(voice.handles).toHaveLength(0);
    expect(requested.some((url) => url.includes('/voice/'))).toBe(false);
  });

  it('starts the phone once the permission comes (a renewal approved), and stops it when it goes', async () => {
    permissions = { '/sellers/payment-seller-subscriptions': ['view', 'create'] };
    const { client } = renderProvider();
    await runtimeConfigLoaded(client);
    await settle();
    expect(voice.loads).toBe(0);
    permissions = CALLER;
    await act(() => client.invalidateQueries({ queryKey: ['session', 'sidebar'] }));
    expect(await screen.findByRole('button', { name: 'Phone' })).toBeInTheDocument();
    const handle = voice.handles[0] as (typeof voice.handles)[number];
    permissions = {};
    await act(() => client.invalidateQueries({ queryKey: ['session', 'sidebar'] }));
    await waitFor(() => expect(handle.stop).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
  });

  it('without a signed-in user: nothing is loaded', async () => {
    const auth = createActor(authMachine).start();
    auth.send({ type: 'auth.restored', auth: null });
    const { client } = renderProvider(auth);
    await runtimeConfigLoaded(client);
    await settle();
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
    expect(voice.loads).toBe(0);
  });

  it('with "true": starts the service once, draws the phone button and the call UI, stops on unmount', async () => {
    const { view } = renderProvider();
    const phone = await screen.findByRole('button', { name: 'Phone' });
    expect(voice.loads).toBe(1);
    expect(voice.handles).toHaveLength(1);
    const handle = voice.handles[0] as (typeof voice.handles)[number];

    // The provider draws the toast over the page.
    act(() => handle.call.send({ type: 'call.incoming', callSid: 'CA1', from: '+91 90000 00002' }));
    // find, not get: on a loaded machine the toast's store subscription may land a render later.
    expect(await screen.findByRole('alertdialog', { name: 'Incoming Call' })).toHaveTextContent(
      'From: +91 90000 00002',
    );
    act(() => handle.call.send({ type: 'call.ignore' }));

    // The header button opens the dialog, with the user's own number.
    await userEvent.click(phone);
    expect(screen.getByRole('dialog', { name: 'Phone' })).toHaveTextContent('Your number: +91 90000 00001');

    expect(handle.stop).not.toHaveBeenCalled();
    view.unmount();
    expect(handle.stop).toHaveBeenCalledTimes(1);
    expect(voice.handles).toHaveLength(1);
  });

  it('stops the service when the user signs out (here or in another tab)', async () => {
    const { auth } = renderProvider();
    await screen.findByRole('button', { name: 'Phone' });
    const handle = voice.handles[0] as (typeof voice.handles)[number];
    act(() => auth.send({ type: 'auth.storageChanged', auth: null }));
    await waitFor(() => expect(handle.stop).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
  });

  it('a voice module that fails to load is logged; the shell goes on', async () => {
    voice.fail = true;
    const { client } = renderProvider();
    await runtimeConfigLoaded(client);
    await waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Could not load the voice service', expect.anything()),
    );
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Phone' })).toBeNull();
  });
});

describe('several tabs of the same user: one owns the call', () => {
  /** Two "tabs" in one document, sharing a fake Web Locks manager and BroadcastChannel. */
  function renderTwoTabs() {
    const locks = new FakeLocks();
    const hub = new FakeChannelHub();
    const seams = (tab: string): VoiceTabSeams => ({
      locks: locks.forTab(tab),
      openChannel: hub.forTab(tab),
    });
    const a = renderProvider(signedIn(), seams('A'));
    const b = renderProvider(signedIn(), seams('B'));
    return { a: within(a.view.container), b: within(b.view.container), aView: a.view, locks, hub };
  }

  it('only the owner starts the service and rings; the other tab mirrors it without answer buttons', async () => {
    const { a, b } = renderTwoTabs();
    await a.findByRole('button', { name: 'Phone' });
    const mirrorPhone = await b.findByRole('button', { name: 'Phone' });
    await settle();
    expect(voice.handles).toHaveLength(1);
    const owner = voice.handles[0] as (typeof voice.handles)[number];

    act(() => owner.call.send({ type: 'call.incoming', callSid: 'CA1', from: '+91 90000 00002' }));
    expect(await a.findByRole('alertdialog', { name: 'Incoming Call' })).toHaveTextContent(
      'From: +91 90000 00002',
    );
    const mirrored = await b.findByRole('status', { name: 'Incoming Call' });
    expect(mirrored).toHaveTextContent('From: +91 90000 00002');
    expect(mirrored).toHaveTextContent('Answer it in the tab that is ringing.');
    expect(b.queryByRole('alertdialog')).toBeNull();
    expect(b.queryByRole('button', { name: 'Accept' })).toBeNull();

    // The mirror's phone dialog: the owner's statuses, the note, the take-over button.
    await userEvent.click(mirrorPhone);
    const dialog = b.getByRole('dialog', { name: 'Phone' });
    expect(within(dialog).getByTestId('calling-status')).toHaveTextContent('Incoming Call');
    expect(within(dialog).getByTestId('device-status')).toHaveTextContent("Device isn't ready yet");
    expect(dialog).toHaveTextContent('This call is on another tab.');
    expect(within(dialog).queryByRole('group', { name: 'Dial pad' })).toBeNull();

    act(() => owner.call.send({ type: 'call.accept', at: Date.now() }));
    await waitFor(() => expect(within(dialog).getByTestId('calling-status')).toHaveTextContent('On Call'));
    expect(b.queryByRole('status', { name: 'Incoming Call' })).toBeNull();
  });

  it('"Use this tab for calls" is refused during a call (reason shown), accepted once the line is free', async () => {
    const { a, b } = renderTwoTabs();
    await a.findByRole('button', { name: 'Phone' });
    await userEvent.click(await b.findByRole('button', { name: 'Phone' }));
    const owner = voice.handles[0] as (typeof voice.handles)[number];
    act(() => owner.call.send({ type: 'call.incoming', callSid: 'CA1', from: '+91 90000 00002' }));
    act(() => owner.call.send({ type: 'call.accept', at: Date.now() }));
    await waitFor(() => expect(b.getByTestId('calling-status')).toHaveTextContent('On Call'));

    await userEvent.click(b.getByRole('button', { name: 'Use this tab for calls' }));
    expect(await b.findByRole('alert')).toHaveTextContent(TAKEOVER_REFUSED_BUSY);
    expect(owner.stop).not.toHaveBeenCalled();
    expect(voice.handles).toHaveLength(1);

    // The call ends and its feedback is skipped: the owner's line is free.
    act(() => owner.call.send({ type: 'call.hangup', at: Date.now() }));
    act(() => owner.call.send({ type: 'feedback.skip' }));
    await waitFor(() => expect(b.getByTestId('calling-status')).not.toHaveTextContent('On Call'));
    await userEvent.click(b.getByRole('button', { name: 'Use this tab for calls' }));
    await waitFor(() => expect(voice.handles).toHaveLength(2));
    expect(owner.stop).toHaveBeenCalledTimes(1);
    // B now holds the real phone (dial pad); A mirrors it.
    expect(await b.findByRole('group', { name: 'Dial pad' })).toBeInTheDocument();
    await userEvent.click(a.getByRole('button', { name: 'Phone' }));
    await waitFor(() =>
      expect(a.getByRole('dialog', { name: 'Phone' })).toHaveTextContent('This call is on another tab.'),
    );
  });

  it('closing the owner tab starts the service in the other; its call UI replaces the mirror', async () => {
    const { a, b, aView, locks, hub } = renderTwoTabs();
    await a.findByRole('button', { name: 'Phone' });
    await b.findByRole('button', { name: 'Phone' });
    await settle();
    const owner = voice.handles[0] as (typeof voice.handles)[number];

    // The browser closes tab A: its lock and channel go (the unmount stops its service).
    hub.closeTab('A');
    locks.closeTab('A');
    aView.unmount();
    expect(owner.stop).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(voice.handles).toHaveLength(2));
    const next = voice.handles[1] as (typeof voice.handles)[number];
    act(() => next.call.send({ type: 'call.incoming', callSid: 'CA2', from: '+91 90000 00003' }));
    expect(await b.findByRole('alertdialog', { name: 'Incoming Call' })).toHaveTextContent(
      'From: +91 90000 00003',
    );
    expect(b.queryByRole('status', { name: 'Incoming Call' })).toBeNull();
  });
});
