import { describe, expect, it } from 'vitest';
import { bulkMailsHref, defaultBulkMailsView, parseBulkMailsView } from './url-state';

const ID = '11111111-2222-4333-8444-555555555555';

describe('the Bulk Mails page address', () => {
  it('opens the campaigns tab with nothing open by default', () => {
    expect(parseBulkMailsView('')).toEqual(defaultBulkMailsView);
    expect(bulkMailsHref(defaultBulkMailsView)).toBe('/marketing/bulk-mails');
  });

  it('round-trips the tab, filters, page and what is open', () => {
    const view = {
      ...defaultBulkMailsView,
      query: 'spring',
      page: 3,
      status: 'sending' as const,
      campaignId: ID,
      compose: 'new',
    };
    expect(parseBulkMailsView(bulkMailsHref(view).split('?')[1] ?? '')).toEqual(view);
    const templates = { ...defaultBulkMailsView, tab: 'templates' as const, templateId: ID };
    expect(bulkMailsHref(templates)).toBe(`/marketing/bulk-mails?tab=templates&template=${ID}`);
    expect(parseBulkMailsView(`tab=templates&template=${ID}`)).toEqual(templates);
  });

  it('ignores what it does not know: a bad tab, status, page or id', () => {
    expect(
      parseBulkMailsView('tab=nope&status=lost&page=-2&campaign=1%20OR%201&compose=x&template=../etc'),
    ).toEqual(defaultBulkMailsView);
  });

  it('keeps the status filter to the campaigns tab', () => {
    expect(bulkMailsHref({ ...defaultBulkMailsView, tab: 'templates', status: 'sent' })).toBe(
      '/marketing/bulk-mails?tab=templates',
    );
  });
});
