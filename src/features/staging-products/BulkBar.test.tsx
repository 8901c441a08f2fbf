// The bulk bar over more than 10,000 products (issue 26): the exact count in a confirmation, then a
// task (202 taskStatus) recorded for the task toast, whose end shows "N changed, M skipped". Up to
// 10,000 it stays one round trip with its result; over 1,000,000 it is refused before anything runs.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductSelection } from '../../../contracts/catalog';
import type { SelectionCount } from '../../../contracts/catalog-actions';
import { createBrokerMessageHandler } from '../../app/shell/realtime-handlers';
import { configureHttp, http } from '../../services/http';
import { handleTaskResponse, removeTask, resetTasks, taskStore } from '../../services/tasks';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { notify } from '../../ui/notify';
import { system } from '../../ui/theme';
import { toaster } from '../../ui/toaster';
import { BulkBar } from './BulkBar';

const BASE = '/api/v1/stagingProducts/method';
const query: ProductSelection = { query: { combinator: 'and', children: [] }, search: '' };

describe('<BulkBar />', () => {
  let requests: RecordedRequest[];
  let unconfigure: () => void;
  let size: SelectionCount;
  let bulkReply: FakeReply;
  const originalAdapter = http.defaults.adapter;

  beforeEach(() => {
    size = { count: 12_345, overLimit: false, asJob: true };
    bulkReply = {
      status: 202,
      data: { taskStatus: { taskId: 'task-9', taskName: 'Bulk status change', status: 'Queued' } },
    };
    const fake = createFakeAdapter((request) => {
      if (request.url === `${BASE}/countSelection`) return { status: 200, data: size };
      if (request.url.startsWith(`${BASE}/bulk`)) return bulkReply;
      return { status: 404, data: { message: 'Not here', code: 'NOT_FOUND' } };
    });
    requests = fake.requests;
    http.defaults.adapter = fake.adapter;
    unconfigure = configureHttp({
      getAccessToken: () => 'token-1',
      onTask: (body) => handleTaskResponse(body),
      notifyError: () => {},
    });
  });

  afterEach(() => {
    cleanup();
    unconfigure();
    http.defaults.adapter = originalAdapter;
    toaster.remove();
    resetTasks();
    vi.restoreAllMocks();
  });

  const bulkRequests = () => requests.filter((request) => request.url.startsWith(`${BASE}/bulk`));
  const toasts = () => toaster.getVisibleToasts().map((toast) => [toast.title, toast.description]);

  function renderBar(selection: ProductSelection, onClear = vi.fn()) {
    render(
      <ChakraProvider value={system}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <BulkBar
            selection={selection}
            label="All 12,345 matching products"
            canEdit
            canDelete
            onClear={onClear}
          />
        </QueryClientProvider>
      </ChakraProvider>,
    );
    return onClear;
  }

  async function chooseStatus(label: string) {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Change status/ }));
    await user.click(await screen.findByRole('menuitem', { name: label }));
    return user;
  }

  it('over 10,000 products: confirms with the exact count, then starts a task and its toast ends it', async () => {
    const onClear = renderBar(query);
    const user = await chooseStatus('In review');

    const dialog = await screen.findByRole('alertdialog', { name: 'Move 12,345 products to In review?' });
    expect(within(dialog).getByText(/^12,345 products match\. .*runs in the background/)).toBeTruthy();
    // Counted, not run yet.
    const actions = requests.filter((request) => request.url.startsWith(BASE));
    expect(actions.map((request) => request.url)).toEqual([`${BASE}/countSelection`]);
    expect(actions[0]?.body).toEqual({ selection: query });

    await user.click(within(dialog).getByRole('button', { name: 'Move 12,345 products' }));
    await waitFor(() => expect(bulkRequests()).toHaveLength(1));
    expect(bulkRequests()[0]).toMatchObject({
      url: `${BASE}/bulkStatus`,
      body: { selection: query, status: 'in_review' },
    });
    await waitFor(() =>
      expect(toasts()).toEqual([
        ['Bulk status change started. You will be notified when it is done.', undefined],
      ]),
    );
    expect(taskStore.getSnapshot().tasks['task-9']?.name).toBe('Bulk status change');
    expect(onClear).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    // The task's end arrives on the broker: the task toast, with the outcome under its title.
    const onMessage = createBrokerMessageHandler({
      refreshNotifications: () => {},
      playSound: () => {},
      markNew: () => {},
      toast: notify,
      systemNotification: () => {},
      removeTask,
      emitChat: () => {},
    });
    toaster.remove();
    onMessage(
      'mp_user-1_message',
      JSON.stringify({
        type: 'NOTIFICATION',
        notificationId: 'n-1',
        taskId: 'task-9',
        taskName: 'Bulk status change',
        status: 'Completed',
        title: 'Bulk status change is done',
        body: '12,000 changed, 345 skipped (e.g. SKU-1: Required attributes are missing.).',
      }),
    );
    await waitFor(() =>
      expect(toasts()).toEqual([
        [
          'Bulk status change Completed',
          '12,000 changed, 345 skipped (e.g. SKU-1: Required attributes are missing.).',
        ],
      ]),
    );
    expect(taskStore.getSnapshot().tasks).toEqual({});
  });

  it('deleting over 10,000 says so in the confirmation with the exact count', async () => {
    const user = userEvent.setup();
    bulkReply = {
      status: 202,
      data: { taskStatus: { taskId: 'task-10', taskName: 'Bulk delete', status: 'Queued' } },
    };
    renderBar(query);
    await user.click(screen.getByRole('button', { name: /Delete/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 12,345 products?' });
    expect(
      within(dialog).getByText(/will be deleted\. This cannot be undone\. .*in the background/),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete 12,345 products' }));
    await waitFor(() => expect(bulkRequests().map((request) => request.url)).toEqual([`${BASE}/bulkDelete`]));
    await waitFor(() =>
      expect(toasts()).toEqual([['Bulk delete started. You will be notified when it is done.', undefined]]),
    );
  });

  it('up to 10,000 products runs at once and toasts the result', async () => {
    size = { count: 40, overLimit: false, asJob: false };
    bulkReply = {
      status: 200,
      data: { changed: 38, skippedCount: 2, skipped: [{ id: 'p1', sku: 'SKU-1', reason: 'Already live.' }] },
    };
    renderBar(query);
    await chooseStatus('Live');
    await waitFor(() => expect(bulkRequests()).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() =>
      expect(toasts()).toEqual([
        ['38 products moved to live.', ' 2 products left as they were (e.g. SKU-1: Already live.).'],
      ]),
    );
  });

  it('ticked rows are not counted first: one round trip', async () => {
    bulkReply = { status: 200, data: { changed: 2, skippedCount: 0, skipped: [] } };
    renderBar({ ids: ['a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002'] });
    await chooseStatus('Approved');
    await waitFor(() => expect(bulkRequests()).toHaveLength(1));
    expect(requests.some((request) => request.url.endsWith('/countSelection'))).toBe(false);
  });

  it('over 1,000,000 products: refused before anything runs', async () => {
    size = { count: 1_000_000, overLimit: true, asJob: true };
    renderBar(query);
    await chooseStatus('Approved');
    await waitFor(() =>
      expect(toasts()).toEqual([
        ['A bulk action takes at most 1,000,000 products. Narrow the query first.', undefined],
      ]),
    );
    expect(bulkRequests()).toEqual([]);
  });
});
