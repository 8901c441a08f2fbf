import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, createMachine } from 'xstate';
import { authMachine } from '../../machines/auth.machine';
import { AuthActorProvider } from '../../services/auth-context';
import type { StartBrokerOptions } from '../../services/broker-adapter';
import { PERMISSION_ASKED_KEY } from '../../services/browser-notifications';
import { chatEvents } from '../../services/chat-events';
import { configureHttp, http } from '../../services/http';
import { toStoredAuth } from '../../services/stored-auth';
import { handleTaskResponse, resetTasks, taskStore } from '../../services/tasks';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { toaster } from '../../ui/toaster';
import { HeaderNotifications } from './HeaderNotifications';
import { brokerSessionOf, RealtimeProvider } from './realtime';

// The broker adapter (MQTT.js) is replaced by a fake whose actor is a tiny statechart with the broker's
// status names, so the provider's wiring is what is tested here.
const fakeBrokerMachine = createMachine({
  id: 'fake-broker',
  initial: 'notConnected',
  states: {
    notConnected: { on: { connected: 'connected' } },
    connected: { on: { reconnecting: 'reconnecting' } },
    reconnecting: { on: { connected: 'connected' } },
  },
});

const broker = vi.hoisted(() => ({
  starts: [] as {
    options: StartBrokerOptions;
    handle: {
      actor: { send(event: { type: string }): void };
      tokenChanged: ReturnType<typeof vi.fn>;
      stop: ReturnType<typeof vi.fn>;
    };
  }[],
}));

vi.mock('../../services/broker-adapter', () => ({
  startBroker: (options: StartBrokerOptions) => {
    const actor = createActor(fakeBrokerMachine).start();
    const handle = {
      actor,
      subscribe: vi.fn(async () => {}),
      unsubscribe: vi.fn(async () => {}),
      publish: vi.fn(async () => {}),
      tokenChanged: vi.fn(),
      stop: vi.fn(() => actor.stop()),
    };
    broker.starts.push({ options, handle });
    return handle;
  },
  brokerUrlFor: (location: Location, configured: string | null) => configured ?? `ws://${location.host}/mqtt`,
  selectBrokerStatus: (snapshot: { value: string }) => snapshot.value,
  selectBrokerNotify: (snapshot: { value: string }) => snapshot.value === 'connected',
}));

const user = makeCurrentUser();
const encode = (message: unknown) => new TextEncoder().encode(JSON.stringify(message));

let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;
const requestPermission = vi.fn(async (): Promise<NotificationPermission> => 'granted');

function startAuth() {
  const auth = createActor(authMachine).start();
  auth.send({
    type: 'auth.restored',
    auth: toStoredAuth({ accessToken: 'token-1', expiresIn: 900, user }),
  });
  return auth;
}

function renderShellPart(auth = startAuth()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <ChakraProvider value={system}>
      <AuthActorProvider actor={auth}>
        <QueryClientProvider client={client}>
          <Router hook={memoryLocation({ path: '/' }).hook}>
            <RealtimeProvider>
              <HeaderNotifications />
            </RealtimeProvider>
          </Router>
        </QueryClientProvider>
      </AuthActorProvider>
    </ChakraProvider>,
  );
  return { auth, view };
}

const listRequests = () => requests.filter((request) => request.url.endsWith('/listEventMessages'));
const bell = () => screen.getByRole('button', { name: 'Notifications' });
const started = () => {
  const last = broker.starts.at(-1);
  if (!last) throw new Error('the broker was not started');
  return last;
};
const sendToBroker = (event: 'connected' | 'reconnecting') =>
  act(() => started().handle.actor.send({ type: event }));

beforeEach(() => {
  broker.starts.length = 0;
  const fake = createFakeAdapter((request) => {
    if (request.url === '/api/v1/users/byToken/current') return { status: 200, data: user };
    if (request.url === '/api/v1/users/getSidebarData')
      return {
        status: 200,
        data: { menu: [], permissions: { '/customers/help-chats': ['view'] }, usingDefaultPermissions: true },
      };
    if (request.url === '/api/v1/globalConfigs/runtime')
      return {
        status: 200,
        data: { callServiceEnabled: 'true', mqttTopicPrefix: 'mp', mqttUrl: null, mqttKeepaliveSeconds: 120 },
      };
    if (request.url.endsWith('/listEventMessages'))
      return { status: 200, data: { data: { result: [], count: 0, unreadCount: 0 } } };
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  });
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
  requestPermission.mockClear();
  vi.stubGlobal(
    'Notification',
    Object.assign(function FakeNotification() {}, { permission: 'default', requestPermission }),
  );
  // jsdom cannot play audio: the chime's failure is only warned.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  toaster.remove();
  resetTasks();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the realtime provider', () => {
  it('starts one broker client for the user, with the runtime prefix and the current token', async () => {
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    const { options } = started();
    expect(options.url).toBe(`ws://${window.location.host}/mqtt`);
    expect(options.prefix).toBe('mp');
    // The keepalive comes from the server (SPEC §9's 120 s unless configured otherwise).
    expect(options.timing).toEqual({ keepaliveSeconds: 120 });
    expect(options.session).toEqual({ userId: 'u-1', role: 'Admin', sellerId: null, readsAllChats: true });
    expect(options.getAccessToken()).toBe('token-1');
  });

  it('shows the live status on the bell and refetches the mailbox on every (re)connection', async () => {
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    expect(bell()).toHaveAttribute('data-live', 'notConnected');

    sendToBroker('connected');
    expect(bell()).toHaveAttribute('data-live', 'connected');
    await waitFor(() => expect(listRequests()).toHaveLength(2));

    sendToBroker('reconnecting');
    expect(bell()).toHaveAttribute('data-live', 'reconnecting');
    sendToBroker('connected');
    await waitFor(() => expect(listRequests()).toHaveLength(3));
    // One refetch per reconnection: the adapter's onReconnected is not used as well.
    expect(started().options.onReconnected).toBeUndefined();
  });

  it('a notification toasts, refetches and puts the dot on the bell until the drawer opens', async () => {
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    expect(screen.queryByTestId('notify-dot')).not.toBeInTheDocument();

    act(() =>
      started().options.onMessage(
        'mp_u-1_message',
        encode({ type: 'NOTIFICATION', notificationId: 'n-1', title: 'Seller approved' }),
      ),
    );
    expect(await screen.findByTestId('notify-dot')).toBeInTheDocument();
    await waitFor(() => expect(listRequests()).toHaveLength(2));
    await waitFor(() =>
      expect(toaster.getVisibleToasts().map((toast) => [toast.title, toast.meta?.kind])).toEqual([
        ['Seller approved', 'notification'],
      ]),
    );

    act(() => bell().click());
    await waitFor(() => expect(screen.queryByTestId('notify-dot')).not.toBeInTheDocument());
  });

  it('a finished task toasts "{task name} {status}" and leaves the running tasks', async () => {
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'Sellers export', status: 'Queued' } });
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    expect(screen.getByTestId('tasks-running')).toHaveTextContent('1 task running');
    act(() =>
      started().options.onMessage(
        'mp_u-1_message',
        encode({ type: 'NOTIFICATION', taskId: 't-1', taskName: 'Sellers export', status: 'Failed' }),
      ),
    );
    await waitFor(() =>
      expect(toaster.getVisibleToasts().map((toast) => [toast.title, toast.meta?.kind])).toEqual([
        ['Sellers export Failed', 'error'],
      ]),
    );
    expect(taskStore.getSnapshot().tasks).toEqual({});
    expect(screen.queryByTestId('tasks-running')).not.toBeInTheDocument();
  });

  it('chat messages go to the chat events', async () => {
    const heard = vi.fn();
    const stop = chatEvents.subscribe(heard);
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    started().options.onMessage('/chatBot/salesBot/s-1/abc', encode({ userQuery: 'Hello' }));
    stop();
    expect(heard).toHaveBeenCalledWith({
      topic: '/chatBot/salesBot/s-1/abc',
      payload: { userQuery: 'Hello' },
    });
  });

  it('hands a refreshed token to the client, and stops it when the shell goes', async () => {
    const { auth, view } = renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    const { handle, options } = started();
    expect(handle.tokenChanged).not.toHaveBeenCalled();

    const current = auth.getSnapshot().context.auth;
    if (!current) throw new Error('signed in');
    act(() => auth.send({ type: 'auth.authUpdated', auth: { ...current, accessToken: 'token-2' } }));
    await waitFor(() => expect(handle.tokenChanged).toHaveBeenCalledTimes(1));
    expect(options.getAccessToken()).toBe('token-2');
    // Tasks changing the stored auth do not count as a new token.
    act(() =>
      auth.send({ type: 'auth.authUpdated', auth: { ...current, accessToken: 'token-2', tasks: {} } }),
    );
    expect(handle.tokenChanged).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(handle.stop).toHaveBeenCalledTimes(1);
  });

  it('asks for the notification permission once, across sign-ins', async () => {
    renderShellPart();
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(PERMISSION_ASKED_KEY)).not.toBeNull();
    await waitFor(() => expect(broker.starts).toHaveLength(1));
    cleanup();
    renderShellPart();
    await waitFor(() => expect(broker.starts).toHaveLength(2));
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });
});

describe('the broker session of a user', () => {
  it('is the strongest role, with the seller id for sellers', () => {
    expect(brokerSessionOf(makeCurrentUser())).toEqual({ userId: 'u-1', role: 'Admin', sellerId: null });
    expect(brokerSessionOf(makeCurrentUser({ roles: ['Staff'], isAdmin: false, isStaff: true })).role).toBe(
      'Staff',
    );
    expect(
      brokerSessionOf(
        makeCurrentUser({
          roles: ['Seller'],
          isAdmin: false,
          isSeller: true,
          seller: {
            sellerAddress: '',
            sellerCode: 'SEL-1',
            sellerName: 'Asha Traders',
            sellerId: 's-1',
            logo: null,
            isNewSeller: false,
            blocked: false,
          },
        }),
      ),
    ).toEqual({ userId: 'u-1', role: 'Seller', sellerId: 's-1' });
  });

  it('reads all help chats when the permissions open the all-chats inbox (never as a seller)', () => {
    const inbox = { '/customers/help-chats': ['view' as const] };
    expect(brokerSessionOf(makeCurrentUser(), inbox).readsAllChats).toBe(true);
    expect(brokerSessionOf(makeCurrentUser(), {}).readsAllChats).toBeUndefined();
    const staff = makeCurrentUser({ roles: ['Staff'], isAdmin: false, isStaff: true });
    expect(brokerSessionOf(staff, inbox).readsAllChats).toBe(true);
    const seller = makeCurrentUser({ roles: ['Seller'], isAdmin: false, isSeller: true });
    expect(brokerSessionOf(seller, inbox).readsAllChats).toBeUndefined();
  });
});
