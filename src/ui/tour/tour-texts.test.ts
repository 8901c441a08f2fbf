import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoute, routes } from '../../../contracts/routes';
import { protectedPages } from '../../app/pages';
import {
  guideSteps,
  normalizeTourPath,
  PAGE_TOURS,
  SPEC_TOUR_ROUTES,
  SPEC_TOUR_TEXTS,
  type TourStep,
  tourFor,
  tourTarget,
} from './tour-texts';

const root = path.resolve(__dirname, '../../..');

// SPEC §2 "Guided-tour help texts exist for": exactly these ten routes.
const SPEC_ROUTES = [
  '/',
  '/products/staging-products',
  '/tags/manage-tags',
  '/marketing/manage-invoices',
  '/marketing/bulk-mails',
  '/marketing/contacts',
  '/queries/queries-request',
  '/subscriptions/subscriptions-request',
  '/customers/offer-requests',
  '/settings/manage-settings',
];

const specText = (route: keyof typeof SPEC_TOUR_TEXTS) =>
  SPEC_TOUR_TEXTS[route]
    .map((step) => `${step.title} ${step.body}`)
    .join(' ')
    .toLowerCase();

/** Every step of a page's guide, whoever it is written for. */
const allSteps = (route: string): TourStep[] => {
  const tour = PAGE_TOURS[route];
  if (!tour) return [];
  return Array.isArray(tour)
    ? [...(tour as TourStep[])]
    : [...guideSteps(tour, 'backOffice'), ...guideSteps(tour, 'seller')];
};

/** The source of the feature folder a route's page is loaded from (src/app/pages.ts). */
function pageSource(route: string): string {
  const pages = readFileSync(path.join(root, 'src/app/pages.ts'), 'utf8');
  const escaped = route.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`'${escaped}': lazy\\(\\s*\\(\\) => import\\('\\.\\./features/([\\w-]+)/`).exec(
    pages,
  );
  expect(match, `${route} has a page in src/app/pages.ts`).not.toBeNull();
  const folder = path.join(root, 'src/features', match?.[1] as string);
  // A feature may keep its screens in subfolders (imports: import-list/, import-detail/, requests/).
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tsx') && !file.includes('.test.'))
    .map((file) => readFileSync(path.join(folder, file), 'utf8'))
    .join('\n');
}

describe("SPEC §2's tour texts (kept as data until their pages exist)", () => {
  it('cover exactly the ten SPEC routes', () => {
    expect(Object.keys(SPEC_TOUR_TEXTS).sort()).toEqual([...SPEC_ROUTES].sort());
    expect([...SPEC_TOUR_ROUTES].sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it('leave the invoices guide empty and give every other page real steps', () => {
    expect(SPEC_TOUR_TEXTS['/marketing/manage-invoices']).toEqual([]);
    for (const route of SPEC_TOUR_ROUTES.filter((r) => r !== '/marketing/manage-invoices')) {
      const steps = SPEC_TOUR_TEXTS[route];
      expect(steps.length, route).toBeGreaterThanOrEqual(3);
      for (const step of steps)
        expect(step.body.trim().length, `${route}: ${step.title}`).toBeGreaterThan(30);
    }
  });

  it.each([
    [
      '/products/staging-products',
      [
        'and',
        'or',
        'enumerated',
        'non-enumerated',
        'saved',
        'report',
        'add',
        'reprocess images',
        'export',
        'refresh',
      ],
    ],
    [
      '/tags/manage-tags',
      [
        'hierarchy',
        'calculate node levels',
        'add a node',
        'publish',
        'publish history',
        'export',
        'status overview',
      ],
    ],
    ['/marketing/bulk-mails', ['country', 'company type', 'template', 'language']],
    ['/marketing/contacts', ['filters', 'import leads', 'refresh']],
    [
      '/settings/manage-settings',
      ['profile', 'localization', 'communication', 'shipping', 'website', 'company', 'content'],
    ],
    ['/', ['campaign']],
  ] as const)('%s explains the SPEC capabilities', (route, words) => {
    const text = specText(route);
    for (const word of words) expect(text, word).toContain(word);
  });

  it('are shown only for pages that are built, and only marketing pages speak of campaigns', () => {
    for (const route of SPEC_TOUR_ROUTES) {
      if (!findRoute(route)?.available) expect(PAGE_TOURS[route], route).toBeUndefined();
    }
    for (const route of Object.keys(PAGE_TOURS)) {
      if (route === '/' || route.startsWith('/marketing/')) continue;
      for (const step of allSteps(route))
        expect(`${step.title} ${step.body}`.toLowerCase()).not.toContain('campaign');
    }
    expect(allSteps('/').map((step) => step.title)).toContain('Campaign figures');
  });
});

describe('page guides', () => {
  it('exist only for pages that exist: available in the manifest, with a page in the app', () => {
    for (const route of Object.keys(PAGE_TOURS)) {
      expect(findRoute(route)?.available, `${route} is available`).toBe(true);
      expect(protectedPages[route], `${route} has a page`).toBeDefined();
    }
  });

  it('cover every page that exists', () => {
    const built = routes.filter((route) => route.available && protectedPages[route.path]).map((r) => r.path);
    expect(Object.keys(PAGE_TOURS).sort()).toEqual(built.sort());
  });

  it('say something on every step, once', () => {
    // SPEC §1: the Marketing section's Invoices page has a guide whose text is empty.
    for (const route of Object.keys(PAGE_TOURS).filter((r) => r !== '/marketing/manage-invoices')) {
      const steps = allSteps(route);
      expect(steps.length, route).toBeGreaterThan(0);
      for (const step of steps) {
        expect(step.title.trim().length, `${route} title`).toBeGreaterThan(3);
        expect(step.body.trim().length, `${route}: ${step.title}`).toBeGreaterThan(20);
      }
      const audiences = Array.isArray(PAGE_TOURS[route])
        ? [allSteps(route)]
        : (['backOffice', 'seller'] as const).map((a) => guideSteps(PAGE_TOURS[route] as never, a));
      for (const steps of audiences) {
        const titles = steps.map((step) => step.title);
        expect(new Set(titles).size, `${route}: titles are unique`).toBe(titles.length);
      }
    }
  });

  it('point only at controls that are on their page', () => {
    for (const route of Object.keys(PAGE_TOURS)) {
      // Lower case: a list shell's `viewsTour="…"` names its saved-views target too.
      const source = pageSource(route).toLowerCase();
      for (const step of allSteps(route)) {
        if (!step.target) continue;
        const name = /^\[data-tour="([\w-]+)"\]$/.exec(step.target)?.[1];
        expect(name, `${route}: ${step.target} is a data-tour target`).toBeDefined();
        // The page marks the control itself (data-tour="…") or hands the name to a shared control that
        // marks what it draws (tour="…", e.g. the query builder's FiltersButton; or `tour: '…'` and
        // `'data-tour': '…'` in the props of a list shell).
        expect(
          [`tour="${name}"`, `tour: '${name}'`, `'data-tour': '${name}'`].some((mark) =>
            source.includes(mark),
          ),
          `${route}: "${step.title}" points at ${step.target}, which its page does not have`,
        ).toBe(true);
      }
    }
    expect(tourTarget('export')).toBe('[data-tour="export"]');
  });
});

describe('tourFor: which guide a user gets on a page', () => {
  const admin = {
    isSeller: false,
    permissions: Object.fromEntries(routes.map((route) => [route.path, route.defaults.Admin ?? []])),
  };
  const staff = {
    isSeller: false,
    permissions: Object.fromEntries(
      routes.filter((route) => route.defaults.Staff).map((route) => [route.path, route.defaults.Staff ?? []]),
    ),
  };
  const seller = {
    isSeller: true,
    permissions: Object.fromEntries(
      routes
        .filter((route) => route.defaults.Seller)
        .map((route) => [route.path, route.defaults.Seller ?? []]),
    ),
  };

  it('none on a page not built yet, even for a role that will have it', () => {
    for (const route of ['/marketing/manage-invoices']) expect(tourFor(route, admin), route).toEqual([]);
    expect(tourFor('/no/such/page', admin)).toEqual([]);
  });

  it('none on a page the user may not open ("No access")', () => {
    expect(tourFor('/sellers/manage-sellers', seller)).toEqual([]);
    expect(tourFor('/staff/manage-staff', staff)).toEqual([]);
    expect(tourFor('/', seller)).toEqual([]);
  });

  it("the seller's own version of a shared page", () => {
    const calls = tourFor('/calls/call-history', seller).map((step) => step.title);
    expect(calls[0]).toBe('Your calls');
    expect(tourFor('/calls/call-history', admin)[0]?.title).toBe('Call history');
    expect(tourFor('/sellers/list-of-customers', seller)[0]?.title).toBe('Your customers');
    expect(tourFor('/sellers/general-dashboard', seller).length).toBeGreaterThan(0);
  });

  it('leaves out steps about actions the user may not take', () => {
    const forAdmin = tourFor('/sellers/manage-sellers', admin).map((step) => step.title);
    const forStaff = tourFor('/sellers/manage-sellers', staff).map((step) => step.title);
    expect(forAdmin).toEqual(expect.arrayContaining(['New seller', 'Export']));
    expect(forStaff).not.toContain('New seller');
    expect(forStaff).not.toContain('Export');
    expect(forStaff.length).toBeGreaterThan(0);
    expect(tourFor('/subscriptions/subscriptions-request', staff).map((s) => s.title)).not.toContain(
      'Approve or reject',
    );
  });

  it('finds a guide despite query strings, hashes and trailing slashes', () => {
    expect(tourFor('/staff/manage-staff/?q=ann#top', admin)).toEqual(tourFor('/staff/manage-staff', admin));
    expect(normalizeTourPath('')).toBe('/');
  });
});
