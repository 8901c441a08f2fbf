// The public pages of a mail's links in test mode: a test mail's unsubscribe and answer links open them
// and change nothing (no request is made), so the campaign's author is neither unsubscribed nor counted.
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { configureHttp, http } from '../../services/http';
import { createFakeAdapter, type RecordedRequest } from '../../services/testing/fake-adapter';
import { publicSystem } from '../../ui/theme-public';
import ResponseCollectionPage from './ResponseCollectionPage';
import UnsubscribePage, { TEST_MAIL_UNSUBSCRIBE } from './UnsubscribePage';

let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  const fake = createFakeAdapter(() => ({ status: 200, data: { message: 'Done' } }));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => null, notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderAt(path: string, page: ReactNode) {
  const { hook, searchHook } = memoryLocation({ path });
  render(
    <ChakraProvider value={publicSystem}>
      <Router hook={hook} searchHook={searchHook}>
        {page}
      </Router>
    </ChakraProvider>,
  );
}

describe('mail link pages opened from a test mail', () => {
  it('the unsubscribe link says it comes from a test mail and offers nothing to press', () => {
    renderAt('/unsubscribe?test=1', <UnsubscribePage />);
    expect(screen.getByRole('status')).toHaveTextContent(TEST_MAIL_UNSUBSCRIBE);
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it('an answer link names the answer and records nothing', () => {
    renderAt('/responseCollection?test=1&response=Interested', <ResponseCollectionPage />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'This “Interested” link comes from a test mail. Recipients answer the campaign here; a test answer is not recorded.',
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it('a real link still asks to confirm the unsubscribe', () => {
    renderAt('/unsubscribe?email=a%40b.co&token=t', <UnsubscribePage />);
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeInTheDocument();
  });
});
