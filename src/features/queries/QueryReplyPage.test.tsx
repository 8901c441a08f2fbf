import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { configureHttp, http } from '../../services/http';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import QueryReplyPage, { BAD_LINK, replyLinkOf } from './QueryReplyPage';
import { QUERY_ID } from './testing';

const API = '/api/v1/helperQuery/method/customerReply';
const TOKEN = 'abcdefghijklmnop';
let requests: RecordedRequest[];
let unconfigure: () => void;
let page: FakeReply;
const originalAdapter = http.defaults.adapter;

function reply(request: RecordedRequest): FakeReply {
  if (request.url !== API) return { status: 404, data: { message: 'Not found' } };
  if (request.method.toLowerCase() === 'post')
    return { status: 200, data: { message: 'Thank you. Your answer has reached us.' } };
  return page;
}

beforeEach(() => {
  page = {
    status: 200,
    data: { number: 12, subject: '<i>Late order</i>', customerName: 'Meera', open: true },
  };
  const fake = createFakeAdapter(reply);
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => null, notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderAt(search: string) {
  const memory = memoryLocation({ path: `/query-reply${search}` });
  render(
    <ChakraProvider value={system}>
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <QueryReplyPage />
      </Router>
    </ChakraProvider>,
  );
}

describe('QueryReplyPage', () => {
  it('reads the link: a query id and a token of a plausible length', () => {
    expect(replyLinkOf(`?query=${QUERY_ID}&token=${TOKEN}`)).toEqual({ query: QUERY_ID, token: TOKEN });
    expect(replyLinkOf(`?query=nope&token=${TOKEN}`)).toBeNull();
    expect(replyLinkOf(`?query=${QUERY_ID}&token=short`)).toBeNull();
    expect(replyLinkOf('')).toBeNull();
  });

  it('says an incomplete link is not valid, without asking the server', async () => {
    renderAt(`?query=${QUERY_ID}`);
    expect((await screen.findByRole('alert')).textContent).toContain(BAD_LINK);
    expect(requests).toHaveLength(0);
  });

  it('shows the server’s word for a forged link, and no form', async () => {
    page = {
      status: 404,
      data: { message: 'This reply link is not valid. Use the link in our latest mail.' },
    };
    renderAt(`?query=${QUERY_ID}&token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toContain('This reply link is not valid');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows which query is answered (as text) and sends the answer', async () => {
    renderAt(`?query=${QUERY_ID}&token=${TOKEN}`);
    expect(await screen.findByText('Q-12: <i>Late order</i>')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByText('Write your answer.')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: /Your answer/ }), 'It arrived, thanks!');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByText('Thank you. Your answer has reached us.')).toBeTruthy();
    await waitFor(() =>
      expect(requests.find((request) => request.method.toLowerCase() === 'post')?.body).toEqual({
        query: QUERY_ID,
        token: TOKEN,
        message: 'It arrived, thanks!',
      }),
    );
  });

  it('takes no answer on a closed query', async () => {
    page = { status: 200, data: { number: 12, subject: 'Late', customerName: 'Meera', open: false } };
    renderAt(`?query=${QUERY_ID}&token=${TOKEN}`);
    expect(await screen.findByText(/This query is closed/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
