// The header's video-call people picker (issue 26): presence follows the signalling server while the
// picker is open, and a seller whose subscription is blocked is listed with the reason, not callable.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider, queryOptions } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BLOCKED_SELLER_PICKER_REASON,
  VIDEO_CALL_EVENTS,
  type VideoPerson,
} from '../../../contracts/video-calls';
import { startVideoCalls, type VideoCallHandle } from '../../services/video-call/video-call-session';
import { system } from '../../ui/theme';
import { VideoCallContext } from '../../ui/video-call/context';
import { PeoplePicker } from './HeaderVideoCall';

const ASHA = '11111111-1111-4111-8111-111111111111';
const BELA = '22222222-2222-4222-8222-222222222222';
const SUNIL = '33333333-3333-4333-8333-333333333333';
const person = (id: string, name: string, extra: Partial<VideoPerson> = {}): VideoPerson => ({
  id,
  name,
  email: `${name.split(' ')[0]?.toLowerCase()}@demo.local`,
  role: 'Seller',
  avatarUrl: null,
  online: false,
  blocked: false,
  ...extra,
});
const people = [
  person(ASHA, 'Asha Admin', { role: 'Admin', online: true }),
  person(BELA, 'Bela Blocked', { blocked: true }),
  person(SUNIL, 'Sunil Seller'),
];

vi.mock('../../services/video-people', () => ({
  videoPeopleQuery: (query: object) =>
    queryOptions({
      queryKey: ['video-people', query],
      queryFn: async () => ({ result: people, count: people.length }),
    }),
}));

interface Emitted {
  event: string;
  payload: unknown;
  ack?: (answer: unknown) => void;
}

/** The signalling socket as the session uses it: what the picker sends, and what the server says. */
class FakeSocket {
  connected = true;
  emitted: Emitted[] = [];
  private handlers = new Map<string, Set<(payload: unknown) => void>>();
  on(event: string, handler: (payload: unknown) => void) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
    return this;
  }
  off(event: string, handler: (payload: unknown) => void) {
    this.handlers.get(event)?.delete(handler);
    return this;
  }
  emit(event: string, payload: unknown, ack?: (answer: unknown) => void) {
    this.emitted.push({ event, payload, ack });
    return this;
  }
  deliver(event: string, payload: unknown) {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }
  watches() {
    return this.emitted.filter((entry) => entry.event === VIDEO_CALL_EVENTS.watchPresence);
  }
}

let handle: VideoCallHandle | null = null;
afterEach(() => {
  cleanup();
  handle?.stop();
  handle = null;
});

function renderPicker() {
  const socket = new FakeSocket();
  handle = startVideoCalls({ selfId: 'me', socket: socket as never, iceServers: async () => [] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <VideoCallContext.Provider value={{ handle }}>
          <PeoplePicker handle={handle} />
        </VideoCallContext.Provider>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { socket, view };
}

const row = (name: string) => {
  const found = screen.getAllByTestId('video-person').find((item) => item.textContent?.includes(name));
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
};

describe('the video-call people picker', () => {
  it('follows presence live while open: a person who comes online turns online without reopening', async () => {
    const { socket, view } = renderPicker();
    await screen.findByText('Sunil Seller');
    // The picker watches the people on its page; the server answers who is online right now.
    await waitFor(() => expect(socket.watches()).toHaveLength(1));
    const [watch] = socket.watches();
    expect(watch?.payload).toEqual({ userIds: [ASHA, BELA, SUNIL] });
    act(() => watch?.ack?.({ ok: true, online: [ASHA] }));
    expect(row('Sunil Seller').getByText(/offline/)).toBeInTheDocument();
    expect(row('Asha Admin').getByText(/online/)).toBeInTheDocument();

    // Sunil signs in: the signalling server says so, and the open picker shows it.
    act(() => socket.deliver(VIDEO_CALL_EVENTS.presence, { userId: SUNIL, online: true }));
    expect(row('Sunil Seller').getByText('Seller · online')).toBeInTheDocument();
    // Asha closes her last tab.
    act(() => socket.deliver(VIDEO_CALL_EVENTS.presence, { userId: ASHA, online: false }));
    expect(row('Asha Admin').getByText('Admin · offline')).toBeInTheDocument();
    // Someone not on the page is not the picker's business.
    act(() => socket.deliver(VIDEO_CALL_EVENTS.presence, { userId: 'someone-else', online: true }));
    expect(screen.getAllByTestId('video-person')).toHaveLength(3);

    // Closing the picker stops the watch.
    view.unmount();
    expect(socket.watches().at(-1)?.payload).toEqual({ userIds: [] });
  });

  it('lists a blocked seller with the reason and no call button; the others can be called', async () => {
    renderPicker();
    await screen.findByText('Bela Blocked');
    expect(row('Bela Blocked').getByText(`Seller · ${BLOCKED_SELLER_PICKER_REASON}`)).toBeInTheDocument();
    expect(row('Bela Blocked').queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Video call Bela Blocked' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Video call Sunil Seller' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Video call Asha Admin' })).toBeEnabled();
  });
});
