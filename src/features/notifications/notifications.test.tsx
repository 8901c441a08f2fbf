import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Notification } from '../../../contracts/notifications';
import { fileNameFromDisposition } from '../../services/downloads';
import { configureHttp, http } from '../../services/http';
import { handleTaskResponse, resetTasks, taskStore } from '../../services/tasks';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { isDownloadLink, isInAppPath, OFFLINE_POLL_MS } from './api';
import { liveStatusText, unreadLabel } from './NotificationBell';
import { NotificationCenter } from './NotificationCenter';
import { tasksRunningText } from './TasksIndicator';

const NOW = Date.parse('2030-01-01T12:00:00Z');

function makeNotification(n: number, overrides: Partial<Notification> = {}): Notification {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: `Notice ${n}`,
    body: `Body ${n}`,
    link: null,
    taskId: null,
    taskName: null,
    status: null,
    read: false,
    // Newer for higher n: the server lists newest first.
    createdAt: new Date(NOW - (30 - n) * 60_000).toISOString(),
    ...overrides,
  };
}

/** A tiny server: the stored list, paged newest first, and the read marks. */
function notificationServer(initial: Notification[]) {
  const state = { items: [...initial] };
  const reply = (request: RecordedRequest): FakeReply => {
    const { url } = request;
    if (url.endsWith('/listEventMessages')) {
      const skip = Number(request.params.skip);
      const limit = Number(request.params.limit);
      const sorted = [...state.items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return {
        status: 200,
        data: {
          data: {
            result: sorted.slice(skip, skip + limit),
            count: sorted.length,
            unreadCount: sorted.filter((item) => !item.read).length,
          },
        },
      };
    }
    if (url.endsWith('/markRead')) {
      const ids = (request.body as { ids: string[] }).ids;
      state.items = state.items.map((item) => (ids.includes(item.id) ? { ...item, read: true } : item));
      return { status: 200, data: { unreadCount: state.items.filter((item) => !item.read).length } };
    }
    if (url.endsWith('/markAllRead')) {
      state.items = state.items.map((item) => ({ ...item, read: true }));
      return { status: 200, data: { unreadCount: 0 } };
    }
    if (url === '/api/v1/tasks/t-2') {
      return {
        status: 200,
        data: {
          taskId: 't-2',
          taskName: 'Sellers export',
          status: 'Running',
          progress: 40,
          attempts: 1,
          createdAt: new Date(NOW).toISOString(),
          finishedAt: null,
          error: null,
        },
      };
    }
    if (url.startsWith('/api/v1/exports/')) {
      return { status: 200, data: new Blob(['sellerCode,sellerName\nSEL-1,Asha\n'], { type: 'text/csv' }) };
    }
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  };
  return { state, reply };
}

let server: ReturnType<typeof notificationServer>;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
  server = notificationServer([]);
  const fake = createFakeAdapter((request) => server.reply(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  resetTasks();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function renderCenter(
  props: Partial<{ liveStatus: 'connected' | 'reconnecting'; hasNew: boolean; onSeen: () => void }> = {},
) {
  const memory = memoryLocation({ path: '/', record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onSeen = props.onSeen ?? vi.fn();
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook}>
          <NotificationCenter
            liveStatus={props.liveStatus ?? 'connected'}
            hasNew={props.hasNew ?? false}
            onSeen={onSeen}
          />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { memory, client, onSeen };
}

const bell = () => screen.getByRole('button', { name: 'Notifications' });
const listRequests = () => requests.filter((request) => request.url.endsWith('/listEventMessages'));

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(bell());
  return screen.findByRole('dialog', { name: 'Notifications' });
}

describe('the bell', () => {
  it('shows the unread count of the stored list, and no badge when everything is read', async () => {
    server = notificationServer([
      makeNotification(1),
      makeNotification(2),
      makeNotification(3, { read: true }),
    ]);
    renderCenter();
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('2');
    expect(listRequests()[0]?.params).toMatchObject({ skip: 0, limit: 20 });

    cleanup();
    server = notificationServer([makeNotification(1, { read: true })]);
    renderCenter();
    await waitFor(() => expect(listRequests().length).toBeGreaterThan(1));
    await waitFor(() => expect(bell()).toHaveAttribute('data-live', 'connected'));
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
  });

  it('shows the notify dot only while something new arrived, and opening the drawer reports it seen', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { onSeen } = renderCenter({ hasNew: true });
    expect(screen.getByTestId('notify-dot')).toBeInTheDocument();
    await openDrawer(user);
    expect(onSeen).toHaveBeenCalledTimes(1);
    cleanup();
    renderCenter({ hasNew: false });
    expect(screen.queryByTestId('notify-dot')).not.toBeInTheDocument();
  });

  it('polls the list while live updates are off, and not while they are on', async () => {
    renderCenter({ liveStatus: 'reconnecting' });
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    expect(bell()).toHaveAttribute('data-live', 'reconnecting');
    await act(() => vi.advanceTimersByTimeAsync(OFFLINE_POLL_MS + 10));
    await waitFor(() => expect(listRequests()).toHaveLength(2));

    cleanup();
    requests.length = 0;
    renderCenter({ liveStatus: 'connected' });
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(OFFLINE_POLL_MS * 2));
    expect(listRequests()).toHaveLength(1);
  });

  it('words the live status and caps the count', () => {
    expect(liveStatusText('reconnecting')).toBe('Live updates paused — reconnecting');
    expect(liveStatusText('connected')).toBe('Live updates on');
    expect(unreadLabel(7)).toBe('7');
    expect(unreadLabel(100)).toBe('99+');
  });
});

describe('the drawer', () => {
  it('says so when there is nothing yet', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    const drawer = await openDrawer(user);
    expect(await within(drawer).findByText('No notifications yet')).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('lists newest first with relative times, pages with Load more, and renders text, never HTML', async () => {
    const items = Array.from({ length: 25 }, (_, i) => makeNotification(i + 1));
    items[24] = makeNotification(25, { title: '<img src=x onerror=alert(1)>Export ready' });
    server = notificationServer(items);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    const drawer = await openDrawer(user);
    await waitFor(() => expect(within(drawer).getAllByTestId('notification-item')).toHaveLength(20));
    const titles = () =>
      within(drawer)
        .getAllByTestId('notification-item')
        .map((item) => item.querySelector('p')?.textContent?.replace(' (unread)', ''));
    expect(titles()[0]).toBe('<img src=x onerror=alert(1)>Export ready');
    expect(titles()[1]).toBe('Notice 24');
    expect(drawer.querySelector('img')).toBeNull();
    expect(within(drawer).getByText('5 mins ago')).toBeInTheDocument();
    expect(within(drawer).getByText('25 unread of 25')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(drawer).getAllByTestId('notification-item')).toHaveLength(25));
    expect(titles().at(-1)).toBe('Notice 1');
    expect(listRequests().at(-1)?.params).toMatchObject({ skip: 20, limit: 20 });
    expect(within(drawer).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('marks one read: the request carries its id, and the count and the styling follow', async () => {
    server = notificationServer([makeNotification(1), makeNotification(2)]);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('2');
    const drawer = await openDrawer(user);
    const newest = (await within(drawer).findAllByTestId('notification-item'))[0] as HTMLElement;
    expect(newest).toHaveAttribute('data-read', 'false');
    await user.click(within(newest).getByRole('button', { name: 'Mark as read' }));

    const marks = requests.filter((request) => request.url.endsWith('/markRead'));
    expect(marks).toHaveLength(1);
    expect(marks[0]?.method).toBe('POST');
    expect(marks[0]?.body).toEqual({ ids: [makeNotification(2).id] });
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('1'));
    await waitFor(() =>
      expect(within(drawer).getAllByTestId('notification-item')[0]).toHaveAttribute('data-read', 'true'),
    );
    expect(within(newest).queryByRole('button', { name: 'Mark as read' })).not.toBeInTheDocument();
  });

  it('marks all read', async () => {
    server = notificationServer([makeNotification(1), makeNotification(2), makeNotification(3)]);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('3');
    const drawer = await openDrawer(user);
    await within(drawer).findAllByTestId('notification-item');
    await user.click(within(drawer).getByRole('button', { name: 'Mark all as read' }));
    expect(requests.filter((request) => request.url.endsWith('/markAllRead'))).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(
        within(drawer)
          .getAllByTestId('notification-item')
          .map((item) => item.getAttribute('data-read')),
      ).toEqual(['true', 'true', 'true']),
    );
    expect(within(drawer).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('a failed mark puts the unread state back', async () => {
    server = notificationServer([makeNotification(1)]);
    const reply = server.reply;
    server.reply = (request) =>
      request.url.endsWith('/markRead')
        ? { status: 500, data: { message: 'Down', code: 'X' } }
        : reply(request);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    const drawer = await openDrawer(user);
    const item = (await within(drawer).findAllByTestId('notification-item'))[0] as HTMLElement;
    await user.click(within(item).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(requests.some((request) => request.url.endsWith('/markRead'))).toBe(true));
    await waitFor(() =>
      expect(within(drawer).getAllByTestId('notification-item')[0]).toHaveAttribute('data-read', 'false'),
    );
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');
  });

  it('clicking an item with an in-app link marks it read, closes the drawer and opens the page', async () => {
    server = notificationServer([makeNotification(1, { link: '/sellers/manage-sellers?tab=inactive' })]);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { memory } = renderCenter();
    const drawer = await openDrawer(user);
    await user.click(await within(drawer).findByText('Notice 1'));
    expect(requests.find((request) => request.url.endsWith('/markRead'))?.body).toEqual({
      ids: [makeNotification(1).id],
    });
    expect(memory.history?.at(-1)).toBe('/sellers/manage-sellers?tab=inactive');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('clicking an export notification downloads the file with the access token', async () => {
    const link = '/api/v1/exports/11111111-1111-4111-8111-111111111111/download';
    server = notificationServer([makeNotification(1, { link, read: true, taskName: 'Sellers export' })]);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:test';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    const drawer = await openDrawer(user);
    await user.click(await within(drawer).findByText('Download file'));
    await waitFor(() => expect(clicks).toHaveLength(1));
    const download = requests.find((request) => request.url === link);
    expect(download?.authorization).toBe('Bearer token-1');
    expect(download?.config.responseType).toBe('blob');
    expect(clicks[0]?.getAttribute('href')).toBe('blob:test');
    expect(clicks[0]?.download).toBeTruthy();
    expect(await created[0]?.text()).toBe('sellerCode,sellerName\nSEL-1,Asha\n');
    // Already read: nothing to mark.
    expect(requests.some((request) => request.url.endsWith('/markRead'))).toBe(false);
  });

  it('a finished task in the stored list is no longer counted as running', async () => {
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'Sellers export', status: 'Queued' } });
    handleTaskResponse({ taskStatus: { taskId: 't-2', taskName: 'Sellers export', status: 'Queued' } });
    server = notificationServer([makeNotification(1, { taskId: 't-1', status: 'Completed' })]);
    renderCenter();
    await waitFor(() => expect(Object.keys(taskStore.getSnapshot().tasks)).toEqual(['t-2']));
    expect(screen.getByTestId('tasks-running')).toHaveTextContent('1 task running');
    expect(tasksRunningText(3)).toBe('3 tasks running');
  });

  it('lists the running tasks with their progress, read from the server only while open', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    handleTaskResponse({ taskStatus: { taskId: 't-2', taskName: 'Sellers export', status: 'Queued' } });
    renderCenter();
    const trigger = await screen.findByTestId('tasks-running');
    expect(requests.some((request) => request.url === '/api/v1/tasks/t-2')).toBe(false);
    await user.click(trigger);
    const row = await screen.findByTestId('task-progress');
    await waitFor(() => expect(row).toHaveTextContent('Sellers exportRunning · 40%'));
  });
});

describe('links', () => {
  it('tells downloads from pages and opens nothing else', () => {
    expect(isDownloadLink('/api/v1/exports/x/download')).toBe(true);
    expect(isInAppPath('/sellers/manage-sellers')).toBe(true);
    expect(isInAppPath('/api/v1/exports/x/download')).toBe(false);
    expect(isInAppPath('//evil.example/x')).toBe(false);
    expect(isInAppPath('javascript:alert(1)')).toBe(false);
    expect(isInAppPath('https://evil.example')).toBe(false);
  });

  it('reads the file name of a Content-Disposition header', () => {
    expect(fileNameFromDisposition('attachment; filename="sellers-2030.csv"')).toBe('sellers-2030.csv');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''sellers%20%C3%A9.xlsx")).toBe(
      'sellers é.xlsx',
    );
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition(undefined)).toBeNull();
  });
});
