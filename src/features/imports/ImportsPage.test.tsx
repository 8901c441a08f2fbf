import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { validationMessages } from '../../../contracts/domain/validators';
import {
  IMPORTS_ROUTE,
  type Import,
  type ImportRequest,
  type MappingTargetOption,
  type ReportRow,
} from '../../../contracts/imports';
import type { RouteAction } from '../../../contracts/routes';
import { configureHttp, http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import ImportsPage from './ImportsPage';
import { BATCH_ID, IMPORT_ID, makeCounts, makeImport, makeReport, makeRow } from './shared/testing';

const BASE = '/api/v1/imports';

const rows: ReportRow[] = [
  makeRow({ line: 2, outcome: 'create', sku: 'TS-1', title: 'Cotton tee' }),
  makeRow({
    line: 3,
    outcome: 'update',
    sku: 'TS-2',
    title: 'Linen shirt',
    productId: 'p-2',
    changes: [{ field: 'price', label: 'Price', before: '1200', after: '1299.50' }],
  }),
  makeRow({
    line: 4,
    outcome: 'duplicate',
    sku: 'TS-1',
    title: 'Cotton tee',
    duplicateOf: {
      line: 2,
      productId: null,
      sku: 'TS-1',
      title: 'Cotton tee',
      reason: 'Same SKU as an earlier row',
    },
  }),
  makeRow({
    line: 17,
    outcome: 'error',
    sku: 'TS-9',
    // A user's text is shown as text, never as markup.
    title: '<img src=x onerror=alert(1)>',
    errors: [
      { column: 3, header: 'Price', cell: 'D17', code: 'NUMBER', message: 'Write a number like 1299.50.' },
    ],
  }),
];

const NEW_BATCH = '44444444-4444-4444-8444-444444444444';
const NEW_IMPORT = '55555555-5555-4555-8555-555555555555';
const REQUEST_ID = '66666666-6666-4666-8666-666666666666';

const target = (
  value: string,
  label: string,
  patch: Partial<MappingTargetOption> = {},
): MappingTargetOption => ({
  target: value,
  label,
  kind: value.startsWith('attr:') ? 'attribute' : 'field',
  dataType: null,
  requiredToCreate: ['sku', 'title', 'category', 'price'].includes(value),
  hint: `how ${label} is read`,
  ...patch,
});
const targets = [
  target('sku', 'SKU'),
  target('title', 'Title'),
  target('category', 'Category'),
  target('price', 'Price', { hint: 'a number like 1299.50' }),
  target('attr:colour', 'Colour', { hint: 'one of: Red, Blue' }),
];
const mapped = ['sku', 'title', 'category', 'price'].map((value, index) => ({
  index,
  header: ['SKU', 'Title', 'Category', 'Price'][index] as string,
  target: value,
}));

const feedRequest: ImportRequest = {
  id: REQUEST_ID,
  sellerId: '33333333-3333-4333-8333-333333333333',
  sellerName: 'Demo Store',
  kind: 'feed',
  fileName: null,
  feedUrl: 'https://feeds.example.com/products.csv',
  note: 'Columns are <b>German</b>',
  status: 'open',
  assignee: null,
  response: null,
  importIds: [],
  createdBy: { id: 'u-9', name: 'Demo Seller' },
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
};

const readyImport = () =>
  makeImport(
    {},
    {
      status: 'ready',
      mapping: mapped,
      counts: makeCounts({ create: 1, update: 1, duplicate: 1, error: 1 }),
    },
  );

/** A tiny imports server: the import (a queue of answers, the last repeated), its report, the moves. */
function importServer(answers: Import[]) {
  const state = { answers: [...answers], fail: false, requests: [] as ImportRequest[] };
  const reply = (request: RecordedRequest): FakeReply => {
    const { url, params } = request;
    if (url === `${BASE}/getImport/${IMPORT_ID}`) {
      const next = state.answers.length > 1 ? state.answers.shift() : state.answers[0];
      return { status: 200, data: next };
    }
    if (url === `${BASE}/getBatchReport`) {
      if (state.fail)
        return { status: 500, data: { message: 'The report is unavailable', code: 'INTERNAL' } };
      const matching = rows.filter((row) => !params.outcome || row.outcome === params.outcome);
      return {
        status: 200,
        data: makeReport(matching, {
          unmappedColumns: [{ index: 4, header: 'Colour code' }],
          topErrors: [{ code: 'NUMBER', header: 'Price', message: 'Write a number like 1299.50.', count: 1 }],
        }),
      };
    }
    if (url === `${BASE}/moveToStaging`) {
      const moving = makeImport({}, { status: 'moving', step: 'move', moveKind: 'full', rowsToMove: 2 });
      return {
        status: 200,
        data: {
          batch: moving.batch,
          taskStatus: { taskId: 't-1', taskName: 'Import move', status: 'Queued' },
        },
      };
    }
    if (url === `${BASE}/mappingTargets`) return { status: 200, data: { result: targets } };
    if (url === `${BASE}/reprocessBatch`) {
      const next = makeImport({}, { id: NEW_BATCH, number: 2, status: 'queued', mapping: [] });
      return {
        status: 200,
        data: {
          batch: next.batch,
          taskStatus: { taskId: 't-2', taskName: 'Import validation', status: 'Queued' },
        },
      };
    }
    if (url === `${BASE}/listImportRequests`)
      return { status: 200, data: { result: state.requests, count: state.requests.length } };
    if (url === `${BASE}/getImportRequest/${REQUEST_ID}`) return { status: 200, data: feedRequest };
    if (url === `${BASE}/addImportProductsApi`) return { status: 201, data: feedRequest };
    if (url === `${BASE}/importFromRequest/${REQUEST_ID}`) {
      return {
        status: 201,
        data: {
          import: makeImport(
            { id: NEW_IMPORT, requestId: REQUEST_ID },
            { importId: NEW_IMPORT, status: 'queued' },
          ),
          taskStatus: { taskId: 't-3', taskName: 'Import validation', status: 'Queued' },
        },
      };
    }
    if (url === `${BASE}/listImports` || url === `${BASE}/searchImports`) {
      return { status: 200, data: { result: [readyImport()], count: 1 } };
    }
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  };
  return { state, reply };
}

let server: ReturnType<typeof importServer>;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  server = importServer([readyImport()]);
  const fake = createFakeAdapter((request) => server.reply(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderPage(
  search: string,
  { actions = ['view', 'import'] as RouteAction[], user = makeCurrentUser() } = {},
) {
  const memory = memoryLocation({ path: `${IMPORTS_ROUTE}${search}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The shell has loaded the signed-in user and their permissions before any page renders.
  for (const key of [sessionKeys.currentUser(), sessionKeys.sidebar()])
    client.setQueryDefaults(key, { staleTime: Number.POSITIVE_INFINITY });
  client.setQueryData(sessionKeys.currentUser(), user);
  client.setQueryData(sessionKeys.sidebar(), {
    menu: [],
    permissions: { [IMPORTS_ROUTE]: actions },
    usingDefaultPermissions: false,
  });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <ImportsPage />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return memory;
}

const paramsOf = (request: RecordedRequest | undefined) => {
  if (!request) return undefined;
  const { defaultCountry: _c, defaultCurrency: _u, defaultLanguage: _l, ...params } = request.params;
  return params;
};
const reportRequests = () => requests.filter((request) => request.url === `${BASE}/getBatchReport`);
const reportTable = async () => {
  const table = await screen.findByRole('table', { name: 'Report rows' });
  await waitFor(() => expect(within(table).getAllByTestId('report-row').length).toBeGreaterThan(0));
  return table;
};
const rowAt = (table: HTMLElement, line: number) => {
  const row = within(table)
    .getAllByTestId('report-row')
    .find((candidate) => candidate.textContent?.startsWith(String(line)));
  if (!row) throw new Error(`no row for line ${line}`);
  return within(row);
};

describe('the report of an import', () => {
  it('shows each row with its outcome, SKU, title and why: the cell of an error, what a duplicate duplicates', async () => {
    renderPage(`?import=${IMPORT_ID}`);
    const table = await reportTable();
    expect(paramsOf(reportRequests()[0])).toEqual({ batch: BATCH_ID, skip: 0, limit: 50 });

    expect(rowAt(table, 2).getByText('New product')).toBeInTheDocument();
    expect(rowAt(table, 3).getByText('Update')).toBeInTheDocument();
    const duplicate = rowAt(table, 4);
    expect(duplicate.getByText('Duplicate')).toBeInTheDocument();
    expect(
      duplicate.getByText('Duplicate of line 2 (SKU TS-1): Same SKU as an earlier row'),
    ).toBeInTheDocument();
    const error = rowAt(table, 17);
    expect(error.getByText('Error')).toBeInTheDocument();
    expect(error.getByText('TS-9')).toBeInTheDocument();
    expect(error.getByTestId('cell-error')).toHaveTextContent('D17 · Price: Write a number like 1299.50.');
    // The title is text on the page, not an element.
    expect(error.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(table.querySelector('img')).toBeNull();

    // The header, the summary above the rows, and no move results before a move.
    expect(screen.getByTestId('import-file-name')).toHaveTextContent('spring-catalogue.csv');
    expect(screen.getByTestId('import-seller')).toHaveTextContent('Demo Store');
    expect(screen.getByTestId('batch-number')).toHaveTextContent('Batch 1');
    expect(screen.getByTestId('unmapped-columns')).toHaveTextContent('E “Colour code” — not imported');
    expect(
      within(screen.getByRole('table', { name: 'Most frequent errors' })).getByText('1 row'),
    ).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Result' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Download error sheet/ })).toBeInTheDocument();
  });

  it('filters the rows by outcome from the count chips, and keeps the filter in the URL', async () => {
    const memory = renderPage(`?import=${IMPORT_ID}`);
    await reportTable();
    const chips = screen.getByRole('group', { name: 'Rows by outcome' });
    expect(within(chips).getByTestId('outcome-chip-all')).toHaveTextContent('All rows4');
    expect(within(chips).getByTestId('outcome-chip-error')).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(within(chips).getByTestId('outcome-chip-error'));
    await waitFor(() => expect(paramsOf(reportRequests().at(-1))).toMatchObject({ outcome: 'error' }));
    expect(memory.history?.at(-1)).toBe(`${IMPORTS_ROUTE}?import=${IMPORT_ID}&outcome=error`);
    expect(within(chips).getByTestId('outcome-chip-error')).toHaveAttribute('aria-pressed', 'true');
    const table = await reportTable();
    await waitFor(() => expect(within(table).getAllByTestId('report-row')).toHaveLength(1));
  });

  it('offers no error sheet, move or stop to someone who may only look', async () => {
    renderPage(`?import=${IMPORT_ID}`, { actions: ['view'] });
    await reportTable();
    expect(screen.queryByRole('button', { name: /Download error sheet/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to staging' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload sheet' })).not.toBeInTheDocument();
  });

  it('shows a failed report in place, with a retry', async () => {
    server.state.fail = true;
    renderPage(`?import=${IMPORT_ID}`);
    expect(await screen.findByText('The report is unavailable')).toBeInTheDocument();
    server.state.fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await reportTable();
  });
});

describe('a running batch', () => {
  it('shows its live progress with Stop, polling the import until validation finishes, then the report', async () => {
    server = importServer([
      makeImport({}, { status: 'validating', rowsRead: 1200, progress: 40, rowsPerSecond: 800 }),
      readyImport(),
    ]);
    renderPage(`?import=${IMPORT_ID}`);
    expect(await screen.findByTestId('progress-text')).toHaveTextContent('1,200 rows read · 40% of the file');
    expect(screen.getByTestId('progress-rate')).toHaveTextContent('800 rows/s');
    expect(screen.getByRole('progressbar', { name: 'Validation progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.getByText('Validation is running')).toBeInTheDocument();
    expect(reportRequests()).toHaveLength(0);

    // The next poll finds it validated: the progress goes and the report comes.
    await reportTable();
    expect(screen.queryByTestId('batch-progress')).not.toBeInTheDocument();
    expect(screen.getByTestId('batch-status')).toHaveTextContent('Ready to move');
  });
});

describe('moving to staging', () => {
  it('asks first, naming the counts, then posts the move for the batch', async () => {
    renderPage(`?import=${IMPORT_ID}`);
    await reportTable();
    await userEvent.click(screen.getByRole('button', { name: 'Move to staging' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Create 1 product and update 1?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move products' }));
    await waitFor(() =>
      expect(requests.some((request) => request.url === `${BASE}/moveToStaging`)).toBe(true),
    );
    const move = requests.find((request) => request.url === `${BASE}/moveToStaging`);
    expect(move?.method).toBe('POST');
    expect(paramsOf(move)).toEqual({ batch: BATCH_ID });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});

describe('the imports list', () => {
  it('lists imports and opens one from its row; sellers do not see a seller column', async () => {
    const memory = renderPage('', {
      user: makeCurrentUser({ isSeller: true, isAdmin: false, roles: ['Seller'] }),
    });
    const table = await screen.findByRole('table', { name: 'Imports' });
    const row = await within(table).findByTestId('import-row');
    expect(within(row).getByText('Ready to move')).toBeInTheDocument();
    expect(within(row).getByText('1 new')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Seller' })).not.toBeInTheDocument();
    expect(paramsOf(requests.find((r) => r.url === `${BASE}/listImports`))).toEqual({ skip: 0, limit: 25 });

    await userEvent.click(within(row).getByText('Asha Rao'));
    expect(memory.history?.at(-1)).toBe(`${IMPORTS_ROUTE}?import=${IMPORT_ID}`);
    expect(await screen.findByTestId('import-view')).toBeInTheDocument();
  });

  it('searches with searchImports once the box has text', async () => {
    renderPage('?q=spring');
    await screen.findByTestId('import-row');
    expect(paramsOf(requests.find((r) => r.url === `${BASE}/searchImports`))).toEqual({
      query: 'spring',
      skip: 0,
      limit: 25,
    });
  });
});

describe('the mapping editor', () => {
  it('lists every column, the unmapped one highlighted, and revalidates with the new mapping', async () => {
    renderPage(`?import=${IMPORT_ID}&section=mapping`);
    const table = await screen.findByRole('table', { name: 'Column mapping' });
    const mappingRows = within(table).getAllByTestId('mapping-row');
    expect(mappingRows).toHaveLength(5);
    expect(mappingRows[4]).toHaveAttribute('data-unmapped');
    expect(
      within(mappingRows[4] as HTMLElement).getByText('Not imported', { selector: 'p' }),
    ).toBeInTheDocument();
    expect(within(mappingRows[3] as HTMLElement).queryByText('Not imported', { selector: 'p' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Target for Price' })).toHaveValue('price');
    expect(within(mappingRows[3] as HTMLElement).getByText('a number like 1299.50')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Remember this mapping for this seller' })).toBeChecked();

    // Two columns for one field cannot be applied.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Target for Colour code' }), 'price');
    expect(await screen.findByText(/Price is chosen for 2 columns/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply and revalidate' })).toBeDisabled();

    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Target for Colour code' }),
      'attr:colour',
    );
    await userEvent.click(screen.getByText(/Blank cells clear the stored value/));
    await userEvent.click(screen.getByRole('button', { name: 'Apply and revalidate' }));
    await waitFor(() =>
      expect(requests.some((request) => request.url === `${BASE}/reprocessBatch`)).toBe(true),
    );
    expect(requests.find((request) => request.url === `${BASE}/reprocessBatch`)?.body).toEqual({
      batch: BATCH_ID,
      mapping: [...mapped, { index: 4, header: 'Colour code', target: 'attr:colour' }],
      blankPolicy: 'clear',
      saveMapping: true,
    });
  });
});

describe('import requests', () => {
  const seller = makeCurrentUser({ isSeller: true, isAdmin: false, roles: ['Seller'] });

  it('lets a seller ask for a feed import, checking the URL before sending it', async () => {
    renderPage('?tab=requests', { user: seller });
    expect(await screen.findByText('No import requests')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request an import' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByText('A product feed to fetch'));
    const url = await within(dialog).findByRole('textbox', { name: /Feed URL/ });
    await userEvent.type(url, 'javascript:alert(1)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(validationMessages.url)).toBeInTheDocument();
    expect(requests.some((request) => request.url === `${BASE}/addImportProductsApi`)).toBe(false);

    await userEvent.clear(url);
    await userEvent.type(url, 'https://feeds.example.com/products.csv');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Columns are German');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() =>
      expect(requests.some((request) => request.url === `${BASE}/addImportProductsApi`)).toBe(true),
    );
    expect(requests.find((request) => request.url === `${BASE}/addImportProductsApi`)?.body).toEqual({
      feedUrl: 'https://feeds.example.com/products.csv',
      note: 'Columns are German',
    });
  });

  it('shows staff a request as text, with Take and Fetch feed and import, which opens the new import', async () => {
    server.state.requests = [feedRequest];
    const memory = renderPage(`?tab=requests&request=${REQUEST_ID}`);
    const drawer = await screen.findByRole('dialog');
    // The seller's words and link are text: no markup, no link to the feed.
    expect(await within(drawer).findByTestId('request-note')).toHaveTextContent('Columns are <b>German</b>');
    expect(within(drawer).getByTestId('request-feed-url')).toHaveTextContent(
      'https://feeds.example.com/products.csv',
    );
    expect(within(drawer).queryByRole('link', { name: /feeds\.example\.com/ })).not.toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Take' })).toBeInTheDocument();

    await userEvent.click(within(drawer).getByRole('button', { name: 'Fetch feed and import' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${IMPORTS_ROUTE}?import=${NEW_IMPORT}`));
  });
});
