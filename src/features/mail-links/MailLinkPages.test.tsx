// The public pages of a mail's links in test mode: a test mail's unsubscribe and answer links open them
// and change nothing (no request is made), so the campaign's author is neither unsubscribed nor counted.
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
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

let texts: { text: string; storefrontUrl: string | null; termsUrl: string | null };

beforeEach(() => {
  texts = { text: '', storefrontUrl: null, termsUrl: null };
  const fake = createFakeAdapter((request) =>
    request.url.endsWith('/pageTexts')
      ? { status: 200, data: texts }
      : request.url.endsWith('/responseOptions')
        ? {
            status: 200,
            data: {
              options: ['Interested', 'Not now'],
              labels: ['Intéressé', 'Pas maintenant'],
              current: null,
            },
          }
        : { status: 200, data: { message: 'Done' } },
  );
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

  it("shows the marketplace's text as text, and the links to the shop and the terms when set", async () => {
    texts = {
      text: 'We are sorry to see you go. <b>Really.</b>',
      storefrontUrl: 'https://shop.example.com',
      termsUrl: 'https://shop.example.com/terms',
    };
    renderAt('/unsubscribe?email=a%40b.co&token=t', <UnsubscribePage />);
    expect(await screen.findByTestId('page-text')).toHaveTextContent(
      'We are sorry to see you go. <b>Really.</b>',
    );
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute(
      'href',
      'https://shop.example.com',
    );
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute(
      'href',
      'https://shop.example.com/terms',
    );
  });
});

describe('the answer page of a real link', () => {
  const link = 'email=a%40b.co&campaign=c-1&token=tttttttttttttttttttttttt';

  it("offers only the campaign's answers, preselects the clicked one and sends it", async () => {
    renderAt(`/responseCollection?${link}&response=not%20now`, <ResponseCollectionPage />);
    // Worded in the recipient's language; the answer sent is the campaign's.
    const chosen = await screen.findByRole('radio', { name: 'Pas maintenant' });
    expect(chosen).toBeChecked();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'Interested',
      'Not now',
    ]);
    expect(screen.queryByRole('textbox', { name: 'Your answer' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    // The page's texts come on their own request; the link's are these two.
    const linkRequests = () => requests.filter((request) => !request.url.endsWith('/pageTexts'));
    await waitFor(() => expect(linkRequests().map((request) => request.method)).toEqual(['GET', 'POST']));
    expect(linkRequests()[0]?.params).toMatchObject({
      email: 'a@b.co',
      campaign: 'c-1',
      token: 'tttttttttttttttttttttttt',
    });
    expect(linkRequests()[1]?.body).toMatchObject({ campaign: 'c-1', response: 'Not now' });
  });

  it('a made-up answer in the link preselects nothing', async () => {
    renderAt(`/responseCollection?${link}&response=Buy%20me%20a%20pony`, <ResponseCollectionPage />);
    await screen.findByRole('radio', { name: 'Intéressé' });
    expect(screen.getAllByRole('radio').filter((radio) => (radio as HTMLInputElement).checked)).toEqual([]);
    expect(screen.queryByText('Buy me a pony')).toBeNull();
  });
});
