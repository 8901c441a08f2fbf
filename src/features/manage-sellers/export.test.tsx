import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sellersExportBodySchema } from '../../../contracts/exports';
import { configureHttp, http } from '../../services/http';
import { handleTaskResponse, resetTasks, taskStore } from '../../services/tasks';
import { createFakeAdapter, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { toaster } from '../../ui/toaster';
import { exportBodyOf } from './api';
import { EXPORT_STARTED_MESSAGE, SellersExportMenu } from './SellersExportMenu';

describe('the export body', () => {
  it('carries the tab filter, the sort and the format, and the server schema accepts it', () => {
    const body = exportBodyOf({ tab: 'inactive', query: '', sort: 'sellerName', order: 'asc' }, 'xlsx');
    expect(body).toEqual({
      isActive: 'false',
      isEmailVerified: 'true',
      isKycDone: 'true',
      sort: 'sellerName',
      order: 'asc',
      format: 'xlsx',
    });
    expect(sellersExportBodySchema.parse(body)).toMatchObject({
      isActive: false,
      isKycDone: true,
      format: 'xlsx',
    });
  });

  it('a search exports with the search filter of the tab (SPEC §4) and the query', () => {
    expect(
      exportBodyOf({ tab: 'pending-kyc', query: 'asha', sort: 'createdAt', order: 'desc' }, 'csv'),
    ).toEqual({
      isActive: 'false',
      isKycDone: 'false',
      query: 'asha',
      sort: 'createdAt',
      order: 'desc',
      format: 'csv',
    });
  });
});

describe('<SellersExportMenu />', () => {
  let requests: RecordedRequest[];
  let unconfigure: () => void;
  const originalAdapter = http.defaults.adapter;

  beforeEach(() => {
    const fake = createFakeAdapter(() => ({
      status: 202,
      data: { taskStatus: { taskId: 'task-7', taskName: 'Sellers export', status: 'Queued' } },
    }));
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

  it('starts a CSV export of the current view, records the task and says it started', async () => {
    const user = userEvent.setup();
    render(
      <ChakraProvider value={system}>
        <QueryClientProvider client={new QueryClient()}>
          <SellersExportMenu view={{ tab: 'active', query: 'traders', sort: 'sellerCode', order: 'asc' }} />
        </QueryClientProvider>
      </ChakraProvider>,
    );
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'CSV' }));

    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url).toBe('/api/v1/exports/sellers');
    expect(requests[0]?.body).toEqual({
      isActive: 'true',
      query: 'traders',
      sort: 'sellerCode',
      order: 'asc',
      format: 'csv',
    });
    await waitFor(() =>
      expect(toaster.getVisibleToasts().map((toast) => [toast.title, toast.meta?.kind])).toEqual([
        [EXPORT_STARTED_MESSAGE, 'info'],
      ]),
    );
    expect(taskStore.getSnapshot().tasks['task-7']?.name).toBe('Sellers export');
  });

  it('offers Excel too', async () => {
    const user = userEvent.setup();
    render(
      <ChakraProvider value={system}>
        <QueryClientProvider client={new QueryClient()}>
          <SellersExportMenu view={{ tab: 'active', query: '', sort: 'createdAt', order: 'desc' }} />
        </QueryClientProvider>
      </ChakraProvider>,
    );
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excel (XLSX)' }));
    await waitFor(() => expect(requests[0]?.body).toMatchObject({ format: 'xlsx', isActive: 'true' }));
  });
});
