import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import {
  CALL_HISTORY_ROUTE,
  type CallLog,
  type CallLogDetail,
  type CallStatus,
  callStatuses,
} from '../../../contracts/calls';
import { configureHttp, http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import CallHistoryPage, { RANGE_REVERSED_MESSAGE } from './CallHistoryPage';
import { callStatusPalette } from './call-status';

const ME = { id: 'u-1', name: 'Asha Rao' };
const OTHER = { id: 'u-2', name: 'Ravi Staff' };
const BASE = '/api/v1/callHistory/method';

function makeCall(
  n: number,
  overrides: Partial<CallLog> = {},
  details: Partial<CallLog['callDetails']> = {},
) {
  const started = new Date(Date.UTC(2026, 10, 1, 9, n)).toISOString();
  const call: CallLog = {
    callId: `call-${n}`,
    phoneNumber: `+9190000${String(n).padStart(5, '0')}`,
    peerName: null,
    referenceType: 'OUTGOING',
    source: 'LOCAL',
    media: 'voice',
    callDetails: {
      callDuration: 0,
      callStartedAt: started,
      callStatus: 'Connected',
      callEndedAt: null,
      ...details,
    },
    feedbackData: null,
    owner: ME,
    createdAt: started,
    ...overrides,
  };
  return call;
}

/** A tiny call-history server: list, search (by the contract's filters) and details. */
function callServer(calls: CallLog[], timelines: Record<string, CallLogDetail['timeline']> = {}) {
  const state = { calls, fail: false };
  const reply = (request: RecordedRequest): FakeReply => {
    if (state.fail)
      return { status: 500, data: { message: 'The call log is unavailable', code: 'INTERNAL' } };
    const { url, params } = request;
    const page = (items: CallLog[]) => ({
      status: 200,
      data: {
        result: items.slice(Number(params.skip), Number(params.skip) + Number(params.limit)),
        count: items.length,
      },
    });
    if (url === `${BASE}/listCallHistory`) return page(state.calls);
    if (url === `${BASE}/searchCallHistory`) {
      return page(
        state.calls.filter(
          (call) =>
            (!params.number || call.phoneNumber.includes(String(params.number))) &&
            (!params.status || call.callDetails.callStatus === params.status) &&
            (!params.direction || call.referenceType === params.direction),
        ),
      );
    }
    const detail = url.match(/\/getCallDetails\/(.+)$/);
    if (detail) {
      const call = state.calls.find((candidate) => candidate.callId === decodeURIComponent(detail[1] ?? ''));
      if (!call) return { status: 404, data: { message: 'Call not found', code: 'NOT_FOUND' } };
      return { status: 200, data: { ...call, timeline: timelines[call.callId] ?? [] } };
    }
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  };
  return { state, reply };
}

let server: ReturnType<typeof callServer>;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  server = callServer([]);
  const fake = createFakeAdapter((request) => server.reply(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderPage(search = '', user = makeCurrentUser({ id: ME.id, username: ME.name })) {
  const memory = memoryLocation({ path: `${CALL_HISTORY_ROUTE}${search}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The shell has loaded the signed-in user before any page renders.
  client.setQueryDefaults(sessionKeys.currentUser(), { staleTime: Number.POSITIVE_INFINITY });
  client.setQueryData(sessionKeys.currentUser(), user);
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <CallHistoryPage />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { memory, client };
}

const callRequests = () => requests.filter((request) => request.url.startsWith(BASE));
const lastListRequest = () => {
  const last = callRequests()
    .filter((request) => !request.url.includes('/getCallDetails/'))
    .at(-1);
  if (!last) return undefined;
  // Without the defaults the HTTP client adds to every request (its own tests cover them).
  const { defaultCountry: _c, defaultCurrency: _u, defaultLanguage: _l, ...params } = last.params;
  return { url: last.url, params };
};
const currentUrl = (memory: ReturnType<typeof memoryLocation>) => memory.history?.at(-1) ?? '';
/** The table once the rows have arrived (before, it holds skeleton rows). */
const table = async () => {
  const found = await screen.findByRole('table', { name: 'Call history' });
  await waitFor(() => expect(found.querySelector('[data-call-id]')).not.toBeNull());
  return found;
};
const rowOf = (callId: string) => {
  const row = document.querySelector(`[data-call-id="${callId}"]`);
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${callId}`);
  return row;
};

describe('the list', () => {
  it('lists calls with direction, number, name, coloured status, formatted duration and rating', async () => {
    server = callServer([
      makeCall(
        1,
        { peerName: 'Meera Seller', referenceType: 'INCOMING', feedbackData: { rating: 4, text: 'Good' } },
        { callDuration: 65 },
      ),
      makeCall(2, {}, { callDuration: 3725, callStatus: 'Call Disconnected' }),
      makeCall(3, {}, { callDuration: 0, callStatus: 'Not Picked', callStartedAt: null }),
    ]);
    renderPage();
    await table();
    expect(lastListRequest()).toMatchObject({
      url: `${BASE}/listCallHistory`,
      params: { skip: 0, limit: 20 },
    });

    const first = within(rowOf('call-1'));
    expect(first.getByText('Incoming')).toBeInTheDocument();
    expect(first.getByRole('link', { name: '+919000000001' })).toHaveAttribute(
      'href',
      `${CALL_HISTORY_ROUTE}?callId=call-1`,
    );
    expect(first.getByText('Meera Seller')).toBeInTheDocument();
    expect(first.getByText('1:05')).toBeInTheDocument();
    expect(first.getByText('Connected')).toHaveAttribute('data-palette', 'green');
    expect(first.getByRole('img', { name: 'Rated 4 of 5' })).toBeInTheDocument();

    const second = within(rowOf('call-2'));
    expect(second.getByText('Outgoing')).toBeInTheDocument();
    expect(second.getByText('1:02:05')).toBeInTheDocument();
    expect(second.getByText('Call Disconnected')).toHaveAttribute('data-palette', 'red');
    expect(second.queryByRole('img', { name: /Rated/ })).not.toBeInTheDocument();

    const third = within(rowOf('call-3'));
    expect(third.getByText('0:00')).toBeInTheDocument();
    expect(third.getByText('Not Picked')).toHaveAttribute('data-palette', 'orange');
    // Every call is the signed-in user's own: no Owner column.
    expect(screen.queryByRole('columnheader', { name: 'Owner' })).not.toBeInTheDocument();
  });

  it('shows whose call it is once the page holds other people’s calls (admins)', async () => {
    server = callServer([makeCall(1), makeCall(2, { owner: OTHER })]);
    renderPage();
    await table();
    expect(screen.getByRole('columnheader', { name: 'Owner' })).toBeInTheDocument();
    expect(within(rowOf('call-2')).getByText('Ravi Staff')).toBeInTheDocument();
    expect(within(rowOf('call-1')).getByText('Asha Rao')).toBeInTheDocument();
  });

  it('colours each call status by its word; a cancelled call is neutral', () => {
    expect(Object.fromEntries(callStatuses.map((status) => [status, callStatusPalette(status)]))).toEqual({
      'Not Picked': 'orange',
      Connected: 'green',
      'Call Cancelled': 'gray',
      'Call Disconnected': 'red',
      Rejected: 'red',
      'Call Ignored': 'orange',
    });
  });

  it('pages with the server’s count, keeping the page in the URL', async () => {
    server = callServer(Array.from({ length: 45 }, (_, index) => makeCall(index + 1)));
    const user = userEvent.setup();
    const { memory } = renderPage();
    await table();
    const pager = screen.getByRole('navigation', { name: 'Call history pages' });
    expect(within(pager).getByText('1–20 of 45')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pager).getByText('21–40 of 45')).toBeInTheDocument());
    expect(lastListRequest()?.params).toMatchObject({ skip: 20, limit: 20 });
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?page=2`);
    await waitFor(() => expect(rowOf('call-21')).toBeInTheDocument());

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pager).getByText('41–45 of 45')).toBeInTheDocument());
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(lastListRequest()?.params).toMatchObject({ skip: 20 }));
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?page=2`);
  });

  it('says there are no calls yet, or none matching the filters', async () => {
    renderPage();
    expect(await screen.findByText('No calls yet')).toBeInTheDocument();
    cleanup();
    renderPage('?status=Rejected');
    expect(await screen.findByText('No calls match these filters')).toBeInTheDocument();
  });

  it('shows a failed load in place, and tries again', async () => {
    server.state.fail = true;
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load this page');
    expect(alert).toHaveTextContent('The call log is unavailable');
    server.state.fail = false;
    server.state.calls = [makeCall(1, {}, { callDuration: 125 })];
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await table();
    expect(within(rowOf('call-1')).getByText('2:05')).toBeInTheDocument();
  });
});

describe('the filters', () => {
  it('searches by status and direction, keeping both in the URL and starting from page 1', async () => {
    server = callServer([
      makeCall(1, { referenceType: 'INCOMING' }, { callStatus: 'Rejected' }),
      makeCall(2, { referenceType: 'OUTGOING' }, { callStatus: 'Rejected' }),
      makeCall(3, { referenceType: 'INCOMING' }, { callStatus: 'Connected' }),
    ]);
    const user = userEvent.setup();
    const { memory } = renderPage('?page=3');
    await screen.findByText('No calls yet');

    await user.selectOptions(screen.getByLabelText('Status'), 'Rejected');
    await waitFor(() =>
      expect(lastListRequest()).toMatchObject({
        url: `${BASE}/searchCallHistory`,
        params: { status: 'Rejected', skip: 0, limit: 20 },
      }),
    );
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?status=Rejected`);

    await user.selectOptions(screen.getByLabelText('Direction'), 'Incoming');
    await waitFor(() =>
      expect(lastListRequest()?.params).toEqual({
        status: 'Rejected',
        direction: 'INCOMING',
        skip: 0,
        limit: 20,
      }),
    );
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?status=Rejected&direction=INCOMING`);
    await waitFor(() => expect(document.querySelectorAll('[data-call-id]')).toHaveLength(1));
    expect(rowOf('call-1')).toBeInTheDocument();

    // Back to everything: the plain list again.
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastListRequest()?.url).toBe(`${BASE}/listCallHistory`));
    expect(currentUrl(memory)).toBe(CALL_HISTORY_ROUTE);
  });

  it('searches the number once typing pauses, replacing the URL rather than adding to history', async () => {
    server = callServer([makeCall(1), makeCall(12), makeCall(3)]);
    const user = userEvent.setup();
    const { memory } = renderPage();
    await table();
    const before = memory.history?.length ?? 0;

    // Letters cannot be typed: the server searches by digits.
    await user.type(screen.getByLabelText('Number'), '0a0 01');
    expect(screen.getByLabelText('Number')).toHaveValue('00 01');
    await waitFor(() => expect(lastListRequest()?.url).toBe(`${BASE}/searchCallHistory`));
    const searches = callRequests().filter((request) => request.url.endsWith('/searchCallHistory'));
    expect(searches).toHaveLength(1);
    expect(lastListRequest()?.params).toEqual({ number: '00 01', skip: 0, limit: 20 });
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?number=00+01`);
    expect(memory.history).toHaveLength(before);
  });

  it('sends the date range as the whole local days, ISO 8601', async () => {
    const user = userEvent.setup();
    const { memory } = renderPage();
    await screen.findByText('No calls yet');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-03');
    await waitFor(() =>
      expect(lastListRequest()?.params).toEqual({
        from: new Date(2026, 10, 1, 0, 0, 0, 0).toISOString(),
        to: new Date(2026, 10, 3, 23, 59, 59, 999).toISOString(),
        skip: 0,
        limit: 20,
      }),
    );
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?from=2026-11-01&to=2026-11-03`);
  });

  it('restores the filters and the page from the URL on load', async () => {
    server = callServer(
      Array.from({ length: 25 }, (_, index) => makeCall(index + 1, {}, { callStatus: 'Rejected' })),
    );
    renderPage('?number=9000&status=Rejected&direction=OUTGOING&page=2&bogus=1');
    await table();
    expect(lastListRequest()).toMatchObject({
      url: `${BASE}/searchCallHistory`,
      params: { number: '9000', status: 'Rejected', direction: 'OUTGOING', skip: 20, limit: 20 },
    });
    expect(screen.getByLabelText('Number')).toHaveValue('9000');
    expect(screen.getByLabelText('Status')).toHaveValue('Rejected');
    expect(screen.getByLabelText('Direction')).toHaveValue('OUTGOING');
    expect(await screen.findByText('21–25 of 25')).toBeInTheDocument();
  });

  it('asks nothing for a reversed date range and says why', async () => {
    renderPage('?from=2026-11-05&to=2026-11-01');
    expect(await screen.findByText(`${RANGE_REVERSED_MESSAGE}.`)).toBeInTheDocument();
    expect(screen.getByText(RANGE_REVERSED_MESSAGE)).toBeInTheDocument();
    expect(callRequests()).toHaveLength(0);
  });
});

describe('the call details', () => {
  const statusAt = (minute: number, callStatus: CallStatus) => ({
    at: new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString(),
    event: 'status' as const,
    callStatus,
  });

  it('opens from the number: details, the timeline with coloured statuses, and the feedback as text', async () => {
    const feedback = '<b>Clear</b> line, solved it';
    server = callServer(
      [
        makeCall(
          7,
          {
            peerName: 'Meera Seller',
            referenceType: 'INCOMING',
            feedbackData: { rating: 5, text: feedback },
          },
          { callDuration: 95, callStatus: 'Connected' },
        ),
      ],
      {
        'call-7': [
          { at: new Date(Date.UTC(2026, 10, 1, 9, 6)).toISOString(), event: 'created' },
          statusAt(7, 'Connected'),
          statusAt(9, 'Call Disconnected'),
          { at: new Date(Date.UTC(2026, 10, 1, 9, 10)).toISOString(), event: 'feedback', note: 'Rated 5' },
        ],
      },
    );
    const user = userEvent.setup();
    const { memory } = renderPage('?status=Connected');
    await table();
    await user.click(within(rowOf('call-7')).getByRole('link', { name: '+919000000007' }));

    const drawer = await screen.findByRole('dialog', { name: 'Call with Meera Seller' });
    expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?status=Connected&callId=call-7`);
    expect(requests.some((request) => request.url === `${BASE}/getCallDetails/call-7`)).toBe(true);
    await waitFor(() => expect(within(drawer).getByText('1:35')).toBeInTheDocument());

    const timeline = within(drawer).getByLabelText('Call timeline');
    const items = timeline.querySelectorAll('[data-event]');
    expect([...items].map((item) => item.getAttribute('data-event'))).toEqual([
      'created',
      'status',
      'status',
      'feedback',
    ]);
    expect(items[0]).toHaveTextContent('Call logged');
    expect(within(items[1] as HTMLElement).getByText('Connected')).toHaveAttribute('data-palette', 'green');
    expect(within(items[2] as HTMLElement).getByText('Call Disconnected')).toHaveAttribute(
      'data-palette',
      'red',
    );
    expect(items[3]).toHaveTextContent('Feedback given');
    expect(items[3]).toHaveTextContent('Rated 5');
    for (const item of items) expect(item.querySelector('time')).not.toBeNull();

    const feedbackSection = within(drawer).getByRole('region', { name: 'Feedback' });
    expect(within(feedbackSection).getByRole('img', { name: 'Rated 5 of 5' })).toBeInTheDocument();
    // Rendered as the text typed, never as markup.
    expect(within(feedbackSection).getByTestId('feedback-text').textContent).toBe(feedback);
    expect(feedbackSection.querySelector('b')).toBeNull();

    // Closing keeps the filters.
    await user.click(within(drawer).getByRole('button', { name: 'Close call details' }));
    await waitFor(() => expect(currentUrl(memory)).toBe(`${CALL_HISTORY_ROUTE}?status=Connected`));
  });

  it('opens straight from the URL, and says when the call cannot be loaded', async () => {
    server = callServer([makeCall(1, {}, { callStatus: 'Call Ignored' })]);
    renderPage('?callId=call-404');
    const drawer = await screen.findByRole('dialog', { name: 'Call details' });
    expect(await within(drawer).findByText('Call not found')).toBeInTheDocument();
  });

  it('says when no feedback was given', async () => {
    server = callServer([makeCall(2, {}, { callStatus: 'Rejected' })]);
    renderPage('?callId=call-2');
    const drawer = await screen.findByRole('dialog', { name: 'Call with +919000000002' });
    expect(await within(drawer).findByText('No feedback was given for this call.')).toBeInTheDocument();
    expect(within(drawer).getByText('Nothing recorded for this call yet')).toBeInTheDocument();
  });
});
