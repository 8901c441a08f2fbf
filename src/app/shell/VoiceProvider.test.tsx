// The shell's voice wiring (SPEC §5): the voice service is loaded and started only with the call-service
// flag "true" and a signed-in user, stopped on sign-out and unmount; otherwise nothing of it is drawn and
// its module is never imported. The service is replaced by a fake whose actors are the real statecharts.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
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
import { system } from '../../ui/theme';
import { HeaderCallButton, VoiceProvider } from './VoiceProvider';
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
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

function signedIn() {
  const auth = createActor(authMachine).start();
  auth.send({ type: 'auth.restored', auth: toStoredAuth({ accessToken: 'token-1', expiresIn: 900, user }) });
  return auth;
}

function renderProvider(auth = signedIn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <ChakraProvider value={system}>
      <AuthActorProvider actor={auth}>
        <QueryClientProvider client={client}>
          <VoiceProvider>
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
  waitFor(() => expect(client.getQueryState(['runtime-config'])?.status).toBe('success'));
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
  http.defaults.adapter = createFakeAdapter((request) => {
    if (request.url === '/api/v1/globalConfigs/runtime')
      return { status: 200, data: { callServiceEnabled, mqttTopicPrefix: 'mp', mqttUrl: null } };
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
    expect(screen.getByRole('alertdialog', { name: 'Incoming Call' })).toHaveTextContent(
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
