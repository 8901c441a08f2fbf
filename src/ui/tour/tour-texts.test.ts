import { describe, expect, it } from 'vitest';
import { getTourSteps, normalizeTourPath, TOUR_ROUTES, TOUR_TEXTS, tourTarget } from './tour-texts';

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

const textOf = (route: keyof typeof TOUR_TEXTS) =>
  TOUR_TEXTS[route]
    .map((step) => `${step.title} ${step.body}`)
    .join(' ')
    .toLowerCase();

describe('tour texts', () => {
  it('cover exactly the ten SPEC routes', () => {
    expect(Object.keys(TOUR_TEXTS).sort()).toEqual([...SPEC_ROUTES].sort());
    expect([...TOUR_ROUTES].sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it('leave the invoices guide empty and give every other page real steps', () => {
    expect(TOUR_TEXTS['/marketing/manage-invoices']).toEqual([]);
    for (const route of TOUR_ROUTES.filter((r) => r !== '/marketing/manage-invoices')) {
      const steps = TOUR_TEXTS[route];
      expect(steps.length, route).toBeGreaterThanOrEqual(3);
      for (const step of steps) {
        expect(step.title.trim().length, `${route} title`).toBeGreaterThan(3);
        expect(step.body.trim().length, `${route}: ${step.title}`).toBeGreaterThan(30);
      }
    }
  });

  it('use targets that are valid CSS selectors', () => {
    for (const steps of Object.values(TOUR_TEXTS)) {
      for (const step of steps) {
        if (step.target === undefined) continue;
        expect(() => document.querySelector(step.target!), step.target).not.toThrow();
      }
    }
    expect(tourTarget('export')).toBe('[data-tour="export"]');
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
    const text = textOf(route);
    for (const word of words) expect(text, word).toContain(word);
  });
});

describe('getTourSteps', () => {
  it('finds a guide despite query strings, hashes and trailing slashes', () => {
    expect(getTourSteps('/marketing/contacts/?q=ann#top')).toBe(TOUR_TEXTS['/marketing/contacts']);
    expect(getTourSteps('/?x=1')).toBe(TOUR_TEXTS['/']);
    expect(normalizeTourPath('')).toBe('/');
  });

  it('returns no steps for pages without a guide', () => {
    expect(getTourSteps('/marketing/manage-invoices')).toEqual([]);
    expect(getTourSteps('/sellers/manage-sellers')).toEqual([]);
  });
});
