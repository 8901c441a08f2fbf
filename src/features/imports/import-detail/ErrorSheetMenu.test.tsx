// "Download error sheet" (issue 26): the job that writes the sheet is watched by the page, and the file
// is downloaded once the job is done — told by the broker (the task store) or found by the poll.
// Leaving the page stops the watch (the bell keeps the file).
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskStatus } from '../../../../contracts/notifications';
import { waitForTask } from '../../../services/download-when-ready';
import { configureHttp, http } from '../../../services/http';
import { handleTaskResponse, removeTask, resetTasks } from '../../../services/tasks';
import {
  createFakeAdapter,
  type FakeReply,
  type RecordedRequest,
} from '../../../services/testing/fake-adapter';
import { system } from '../../../ui/theme';
import { BATCH_ID } from '../shared/testing';
import { ErrorSheetMenu } from './ErrorSheetMenu';

const TASK = '77777777-7777-4777-8777-777777777777';
const DOWNLOAD = `/api/v1/exports/${TASK}/download`;

let status: TaskStatus;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;
const saved: string[] = [];

function reply({ method, url }: RecordedRequest): FakeReply {
  if (method === 'POST' && url === '/api/v1/imports/exportBatchErrors')
    return { status: 202, data: { taskStatus: { taskId: TASK, taskName: 'Error sheet', status: 'Queued' } } };
  if (url === `/api/v1/tasks/${TASK}`)
    return {
      status: 200,
      data: {
        taskId: TASK,
        taskName: 'Error sheet',
        status,
        progress: status === 'Completed' ? 100 : 40,
        attempts: 1,
        createdAt: '2026-01-01T10:00:00.000Z',
        finishedAt: null,
        error: null,
      },
    };
  if (url === DOWNLOAD) return { status: 200, data: new Blob(['Line,SKU,Errors\n']) };
  return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
}

beforeEach(() => {
  status = 'Running';
  saved.length = 0;
  const fake = createFakeAdapter(reply);
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  // As the app does: a response naming a task records it in the task store.
  unconfigure = configureHttp({
    getAccessToken: () => 'token-1',
    notifyError: () => {},
    onTask: (body) => void handleTaskResponse(body),
  });
  // jsdom has no object URLs; the anchor's click is where the browser would save the file.
  URL.createObjectURL = () => 'blob:sheet';
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  resetTasks();
  vi.restoreAllMocks();
});

function renderMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <ErrorSheetMenu batch={BATCH_ID} />
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

async function askForSheet() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Download error sheet/ }));
  await user.click(await screen.findByRole('menuitem', { name: 'CSV' }));
  await waitFor(() => expect(requests.some((request) => request.url === `/api/v1/tasks/${TASK}`)).toBe(true));
}

const downloads = () => requests.filter((request) => request.url === DOWNLOAD);

describe('ErrorSheetMenu', () => {
  it('downloads the sheet once its job is done, not before', async () => {
    renderMenu();
    await askForSheet();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      batch: BATCH_ID,
      format: 'csv',
    });
    // Still running: nothing is downloaded, and the button says it is busy.
    expect(downloads()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Preparing error sheet…' })).toBeDisabled();

    // The broker says the job ended (its "Error sheet Completed" toast): the file comes at once.
    status = 'Completed';
    act(() => void removeTask(TASK));
    await waitFor(() => expect(saved).toEqual([TASK]));
    expect(downloads()).toHaveLength(1);
    expect(await screen.findByRole('button', { name: /Download error sheet/ })).toBeEnabled();
  });

  it('downloads nothing once the page is left: the bell keeps the file', async () => {
    const view = renderMenu();
    await askForSheet();
    view.unmount();
    status = 'Completed';
    removeTask(TASK);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(downloads()).toHaveLength(0);
    expect(saved).toEqual([]);
  });
});

describe('waitForTask', () => {
  it('finds the end by polling when the broker says nothing', async () => {
    const controller = new AbortController();
    setTimeout(() => {
      status = 'Failed';
    }, 30);
    await expect(waitForTask(TASK, controller.signal, 10)).resolves.toBe('Failed');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const waiting = waitForTask(TASK, controller.signal, 10);
    controller.abort(new Error('left the page'));
    await expect(waiting).rejects.toThrow('left the page');
  });
});
