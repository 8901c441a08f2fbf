// The Settings page's "Settings of" switch in jsdom against a fake API: an admin chooses a shop by
// searching, the choice goes into the address (`?seller=`) beside the tab, the page names the shop and
// shows only a shop's sections, every request asks for that shop, and a saved value turns from
// inherited to overridden. A seller's own page has no switch and never asks for another shop.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SaveSectionBody, SectionState } from '../../../contracts/settings';
import type { RecordedRequest } from '../../services/testing/fake-adapter';
import SettingsPage from './SettingsPage';
import {
  fakeApiForEachTest,
  renderSection,
  TEST_SELLER_ID as SHOP,
  sectionStateOf,
} from './sections/section-testing';

const SHOP_OPTION = { value: SHOP, label: 'Saffron Stores' };
const OTHER_OPTION = { value: '44444444-4444-4444-8444-444444444444', label: 'Other Goods' };

let signedInAs: 'Admin' | 'Seller';
let shipping: SectionState;

const overview = (sellerId: string | undefined) =>
  signedInAs === 'Seller' || sellerId
    ? {
        scope: { type: 'seller', sellerId: SHOP },
        sections: ['profile', 'localization', 'shipping', 'website', 'company', 'content'],
        canEdit: true,
      }
    : {
        scope: { type: 'marketplace', sellerId: null },
        sections: ['profile', 'localization', 'communication', 'shipping', 'website', 'company', 'content'],
        canEdit: true,
      };

/** A save as the server does it: each field set becomes the shop's own, the version moves on. */
function save(body: SaveSectionBody): SectionState {
  const fields = { ...shipping.fields };
  for (const [field, value] of Object.entries(body.set ?? {})) {
    fields[field] = { ...(fields[field] as SectionState['fields'][string]), value, source: 'overridden' };
  }
  shipping = { ...shipping, version: shipping.version + 1, fields };
  return shipping;
}

const api = fakeApiForEachTest((request) => {
  const sellerId = request.params.sellerId as string | undefined;
  if (request.url === '/api/v1/settings') return { status: 200, data: overview(sellerId) };
  if (request.url === '/api/v1/settings/sellers') {
    const ids = request.params.ids as string | undefined;
    const text = String(request.params.q ?? '').toLowerCase();
    const result = ids
      ? [SHOP_OPTION, OTHER_OPTION].filter((option) => option.value === ids)
      : [SHOP_OPTION, OTHER_OPTION].filter((option) => option.label.toLowerCase().includes(text));
    return { status: 200, data: { result } };
  }
  if (request.url === '/api/v1/settings/history') return { status: 200, data: { result: [], count: 0 } };
  if (request.url === '/api/v1/settings/shipping') {
    return request.method === 'PUT'
      ? { status: 200, data: save(request.body as SaveSectionBody) }
      : { status: 200, data: shipping };
  }
  if (request.url.startsWith('/api/v1/settings/')) {
    const section = request.url.split('/').at(-1) as 'localization';
    return { status: 200, data: sectionStateOf(section, sellerId ? 'seller' : 'marketplace') };
  }
  return { status: 404, data: { message: 'not here' } };
});

function renderPage(search = '') {
  const memory = memoryLocation({ path: `/settings/manage-settings${search}`, record: true });
  renderSection(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <SettingsPage />
    </Router>,
  );
  return memory;
}

/** The settings requests after the page's own overview, which says who the user is. */
const settingsRequests = (from = 0): RecordedRequest[] =>
  api.requests
    .slice(from)
    .filter(
      (request) =>
        request.url.startsWith('/api/v1/settings') &&
        request.url !== '/api/v1/settings/sellers' &&
        !(request.url === '/api/v1/settings' && request.params.sellerId === undefined),
    );

describe('the Settings page scope switch', () => {
  it("puts the chosen shop into the address and shows that shop's sections, asking for that shop", async () => {
    signedInAs = 'Admin';
    shipping = sectionStateOf('shipping', 'seller');
    const memory = renderPage('?tab=shipping');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Communication' })).toBeInTheDocument();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Find a seller by name or code' }), {
      target: { value: 'saff' },
    });
    const scope = screen.getByLabelText('Settings of');
    // Only the shops the search found are offered, after the marketplace.
    await waitFor(() =>
      expect(
        within(scope)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Marketplace', 'Saffron Stores']),
    );
    expect(
      api.requests.filter((request) => request.url === '/api/v1/settings/sellers').at(-1)?.params,
    ).toMatchObject({ q: 'saff', limit: 20 });
    // What the marketplace's page asked for before the switch (on a slow machine, its Shipping tab may
    // already have loaded) is not the shop's.
    const beforeSwitch = api.requests.length;
    fireEvent.change(scope, { target: { value: SHOP } });

    expect(memory.history?.at(-1)).toBe(`/settings/manage-settings?tab=shipping&seller=${SHOP}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings of Saffron Stores' }),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Volumetric divisor')).toHaveValue(5000);
    // A shop's page: no marketplace-only section, and no Profile (that is the signed-in user's own).
    expect(screen.queryByRole('tab', { name: 'Communication' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Profile' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Shipping' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'History' }));
    await screen.findByText(/Changes to Shipping appear here/);
    const afterSwitch = settingsRequests(beforeSwitch);
    expect(afterSwitch.map((request) => `${request.method} ${request.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/settings',
        'GET /api/v1/settings/shipping',
        'GET /api/v1/settings/history',
      ]),
    );
    for (const request of afterSwitch) expect(request.params.sellerId).toBe(SHOP);
  });

  it('opens a linked shop after a reload, and a saved value turns from inherited to overridden', async () => {
    signedInAs = 'Admin';
    shipping = sectionStateOf('shipping', 'seller');
    renderPage(`?tab=shipping&seller=${SHOP}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings of Saffron Stores' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Settings of')).toHaveValue(SHOP);
    const divisor = await screen.findByLabelText('Volumetric divisor');
    const field = divisor.closest('[role="group"], .chakra-field__root') ?? document.body;
    expect(within(field as HTMLElement).getByText('Inherited')).toBeInTheDocument();

    fireEvent.change(divisor, { target: { value: '6000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await within(field as HTMLElement).findByText('Overridden')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Reset to inherited: Volumetric divisor' }),
    ).toBeInTheDocument();
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(put?.url).toBe('/api/v1/settings/shipping');
    expect(put?.params).toMatchObject({ sellerId: SHOP });
    expect(put?.body).toEqual({ version: 0, set: { divisor: 6000 }, reset: [] });
  });

  it("has no switch on a seller's own page, and never asks for another shop", async () => {
    signedInAs = 'Seller';
    shipping = sectionStateOf('shipping', 'seller');
    renderPage(`?tab=shipping&seller=${OTHER_OPTION.value}`);
    expect(await screen.findByLabelText('Volumetric divisor')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Settings of')).toBeNull();
    expect(screen.queryByRole('searchbox', { name: 'Find a seller by name or code' })).toBeNull();
    for (const request of api.requests) expect(request.params.sellerId).toBeUndefined();
    expect(api.requests.some((request) => request.url === '/api/v1/settings/sellers')).toBe(false);
  });
});
