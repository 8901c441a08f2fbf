import { describe, expect, it } from 'vitest';
import {
  defaultImportsView,
  importsHref,
  importsViewToSearch,
  parseImportsView,
  withImport,
} from './url-state';

const ID = '0b7e6f1c-8a8e-4c1e-9d3a-2f1b5c7d9e01';
const OTHER = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

describe('the Imports page in the URL', () => {
  it('reads an empty URL as the imports list, first page', () => {
    expect(parseImportsView('')).toEqual(defaultImportsView);
    expect(importsViewToSearch(defaultImportsView)).toBe('');
  });

  it('reads an open import with its section and report filters, and writes them back the same', () => {
    const search = `?import=${ID}&section=preview&outcome=error&result=conflict&rows=ABC&rowPage=3&change=update&previewPage=2`;
    const view = parseImportsView(search);
    expect(view).toMatchObject({
      importId: ID,
      section: 'preview',
      outcome: 'error',
      result: 'conflict',
      rowSearch: 'ABC',
      rowPage: 3,
      change: 'update',
      previewPage: 2,
    });
    expect(parseImportsView(importsViewToSearch(view))).toEqual(view);
  });

  it('reads the requests tab with its filter, page and open request', () => {
    const view = parseImportsView(`?tab=requests&requestStatus=in_progress&requestPage=2&request=${OTHER}`);
    expect(view).toMatchObject({
      tab: 'requests',
      requestStatus: 'in_progress',
      requestPage: 2,
      requestId: OTHER,
    });
    expect(importsHref(view)).toBe(
      `/imports/manage-imports?tab=requests&requestStatus=in_progress&requestPage=2&request=${OTHER}`,
    );
  });

  it('falls back to the default for anything unknown or malformed', () => {
    const view = parseImportsView(
      '?tab=nope&status=done&page=-2&size=7&import=not-an-id&section=secret&outcome=great&result=x&change=error&request=1',
    );
    expect(view).toEqual(defaultImportsView);
    expect(parseImportsView('?page=2.5&q=%20%20shoes%20').page).toBe(1);
    expect(parseImportsView('?q=%20%20shoes%20').q).toBe('shoes');
    expect(parseImportsView(`?q=${'x'.repeat(300)}`).q).toHaveLength(100);
  });

  it('keeps the list filters and the page size, writing only what differs from the default', () => {
    const view = parseImportsView('?q=spring&status=failed&page=4&size=100');
    expect(view).toMatchObject({ q: 'spring', status: 'failed', page: 4, size: 100 });
    expect(importsViewToSearch(view)).toBe('?q=spring&status=failed&page=4&size=100');
    expect(importsViewToSearch({ ...view, size: 25, page: 1 })).toBe('?q=spring&status=failed');
  });

  it('opens another import on its report with fresh filters, and keeps the list as it was', () => {
    const open = parseImportsView(`?q=spring&page=2&import=${ID}&section=mapping&outcome=error&rowPage=5`);
    const next = withImport(open, OTHER);
    expect(next).toMatchObject({
      q: 'spring',
      page: 2,
      importId: OTHER,
      section: 'report',
      outcome: null,
      rowPage: 1,
    });
    expect(withImport(open, OTHER, 'history').section).toBe('history');
    // Closing the import leaves no trace of its section or filters in the URL.
    expect(importsViewToSearch(withImport(open, null))).toBe('?q=spring&page=2');
    expect(importsViewToSearch({ ...open, importId: null })).toBe('?q=spring&page=2');
  });
});
