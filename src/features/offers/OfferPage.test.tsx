import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OfferDetail } from '../../../contracts/offers';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import OfferPage, { sendBlocker } from './OfferPage';
import { detail, OFFER_ID, pricing, renderAt } from './testing';

const PATH = `/customers/offer?id=${OFFER_ID}`;
const API = `/api/v1/offers/${OFFER_ID}`;
let requests: RecordedRequest[];
let uninstall: () => void;
let current: OfferDetail;

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  if (request.url === API && method === 'get') return { status: 200, data: current };
  if (request.url === `${API}/draft` && method === 'put') {
    current = { ...current, draft: pricing({ notes: 'Saved' }) };
    return { status: 200, data: current };
  }
  if (request.url === `${API}/send` && method === 'post') {
    current = { ...current, currentVersion: current.currentVersion + 1, lastSent: current.draft };
    return { status: 200, data: current };
  }
  if (request.url === `${API}/versions/2/diff`)
    return {
      status: 200,
      data: {
        version: 2,
        against: 1,
        diff: { lines: [], fields: [{ field: 'notes', before: 'Old words', after: 'New words' }] },
      },
    };
  return { status: 404, data: { message: 'There is no such offer.' } };
}

beforeEach(() => {
  current = detail();
  ({ requests, uninstall } = installFakeHttp(reply));
});

afterEach(() => {
  cleanup();
  uninstall();
});

describe('OfferPage', () => {
  it('shows the request, the server-priced draft, its changes against the sent version and the history', async () => {
    renderAt(PATH, <OfferPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'OFR-7: Ada <script>' })).toBeTruthy();
    expect(screen.getByTestId('offer-message').textContent).toBe('Twelve chairs <please>');
    const priced = screen.getByTestId('priced-draft');
    expect(within(priced).getByTestId('offer-total').textContent).toMatch(/128\.17/);
    const diff = within(priced).getByTestId('offer-diff');
    expect(within(diff).getByText('Now with delivery')).toBeTruthy();
    // The badge and the history's entry.
    expect(screen.getAllByText('Version 1 sent')).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Send version 2/ })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('saves the draft in minor units, asks to save before sending, then sends', async () => {
    renderAt(PATH, <OfferPage />);
    const price = await screen.findByRole('textbox', { name: 'Line 1 unit price (EUR)' });
    await userEvent.clear(price);
    await userEvent.type(price, '12.5');
    const send = screen.getByRole('button', { name: /Send version 2/ });
    expect(send.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/Save the draft first/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Save draft/ }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Send version 2/ }).hasAttribute('disabled')).toBe(false),
    );
    const saved = requests.find((r) => r.url === `${API}/draft`);
    expect(saved?.body).toMatchObject({ lines: [{ unitPriceMinor: 1250, quantity: 12 }], currency: 'EUR' });
    await userEvent.click(screen.getByRole('button', { name: /Send version 2/ }));
    await waitFor(() => expect(requests.some((r) => r.url === `${API}/send`)).toBe(true));
  });

  it('says why sending is not possible without the approve permission', async () => {
    renderAt(PATH, <OfferPage />, { actions: ['view', 'edit'] });
    expect(await screen.findByTestId('send-needs-approve')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Send version/ })).toBeNull();
  });

  it('offers to reopen an expired offer as a new version', async () => {
    current = detail({ status: 'expired' });
    renderAt(PATH, <OfferPage />);
    expect(await screen.findByText('Version 1 expired')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Reopen as version 2/ })).toBeTruthy();
  });

  it('shows an accepted offer’s evidence and the diff between sent versions', async () => {
    current = detail({
      status: 'accepted',
      toConvert: true,
      currentVersion: 2,
      versions: [
        ...detail().versions,
        { ...detail().versions[0]!, version: 2, snapshotSha256: 'b'.repeat(64) },
      ],
      responses: [
        {
          version: 2,
          decision: 'accepted',
          typedName: 'Ada Buyer',
          comment: 'Thanks <3',
          ip: '203.0.113.9',
          userAgent: 'Mozilla/5.0 Test',
          snapshotSha256: 'b'.repeat(64),
          createdAt: '2026-01-03T10:00:00.000Z',
        },
      ],
    });
    renderAt(PATH, <OfferPage />);
    const evidence = await screen.findByTestId('offer-evidence');
    for (const text of [
      'Accepted',
      'Ada Buyer',
      '203.0.113.9',
      'Mozilla/5.0 Test',
      'b'.repeat(64),
      'Thanks <3',
    ])
      expect(within(evidence).getByText(text)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Offer draft' })).toBeNull();
    expect(await screen.findByText('New words')).toBeTruthy();
  });

  it('explains the send blockers', () => {
    expect(sendBlocker(detail({ draft: null }), false)).toMatch(/Save a draft/);
    expect(sendBlocker(detail({ draft: pricing({ pricingErrors: ['x'] }) }), false)).toMatch(
      /pricing problems/,
    );
    expect(sendBlocker(detail(), true)).toMatch(/Save the draft first/);
    expect(sendBlocker(detail(), false)).toBeNull();
  });
});
