import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { system } from '../../ui/theme';
import PublicOfferPage from './PublicOfferPage';
import { publicOffer } from './testing';

const TOKEN = 'abc.1.123.sig';
const API = `/api/v1/offers/public/${encodeURIComponent(TOKEN)}`;
let page: { status: number; body: unknown };
let calls: { url: string; method: string; body: unknown }[];

beforeEach(() => {
  page = { status: 200, body: publicOffer() };
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? 'GET',
        body: init.body ? JSON.parse(String(init.body)) : null,
      });
      if (init.method === 'POST')
        return new Response(
          JSON.stringify({
            decision: url.endsWith('/accept') ? 'accepted' : 'declined',
            version: 1,
            typedName: 'Ada Buyer',
            createdAt: '2026-01-03T10:00:00.000Z',
            recorded: true,
          }),
          { status: 200 },
        );
      return new Response(JSON.stringify(page.body), { status: page.status });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(path = `/offer/${TOKEN}`) {
  const memory = memoryLocation({ path, record: true });
  render(
    <ChakraProvider value={system}>
      <Router hook={memory.hook}>
        <PublicOfferPage />
      </Router>
    </ChakraProvider>,
  );
  return memory;
}

describe('PublicOfferPage', () => {
  it('shows the version with its totals and accepts with a typed name', async () => {
    show();
    expect(await screen.findByText('Chair <b>')).toBeTruthy();
    expect(screen.getByTestId('offer-total').textContent).toMatch(/128\.17/);
    expect(screen.getByText('Hello Ada <script>,')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Accept the offer' }));
    expect(await screen.findByText('Type your full name to sign.')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: /Your full name/ }), 'Ada Buyer');
    await userEvent.click(screen.getByRole('button', { name: 'Accept the offer' }));
    expect(await screen.findByText(/you accepted version 1 of this offer as Ada Buyer/)).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      url: `${API}/accept`,
      method: 'POST',
      body: { typedName: 'Ada Buyer' },
    });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('points an old version to the newer one and offers no answer', async () => {
    page.body = publicOffer({
      newerVersion: 2,
      newerToken: 'new.2.456.sig',
      canRespond: false,
      reason: 'newer',
    });
    show();
    const link = await screen.findByRole('link', { name: 'Open version 2' });
    expect(link.getAttribute('href')).toBe('/offer/new.2.456.sig');
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
  });

  it('says an expired offer cannot be accepted, and shows the first answer of an answered one', async () => {
    page.body = publicOffer({
      canRespond: false,
      reason: 'This offer expired on 2026-01-10. Ask the shop for a new one.',
    });
    show();
    expect(await screen.findByText(/This offer expired on 2026-01-10/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
    cleanup();
    page.body = publicOffer({
      canRespond: false,
      status: 'declined',
      response: { decision: 'declined', typedName: 'Ada Buyer', createdAt: '2026-01-03T10:00:00.000Z' },
    });
    show();
    expect(await screen.findByText(/This offer was declined on .* by Ada Buyer/)).toBeTruthy();
  });

  it('says a forged link is not valid', async () => {
    page = {
      status: 404,
      body: {
        message: 'This offer link is not valid. Use the link from your latest offer e-mail.',
        code: 'OFFER_LINK_INVALID',
      },
    };
    show();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/not valid/));
  });
});
