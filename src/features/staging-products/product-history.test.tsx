// The history timelines as products and tags word them, in jsdom: prices read as money in the
// product's currency; a note reads as a quotation only when it is someone's own words, and once.
import { ChakraProvider } from '@chakra-ui/react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../../contracts/audit';
import { formatMoney } from '../../../contracts/domain/currency';
import { HistoryTimeline, type HistoryWords } from '../../ui/history-timeline';
import { system } from '../../ui/theme';
import { tagHistoryWords } from '../tags/TagDetails';
import { treeHistoryWords } from '../tags/VersionsTab';
import { productHistoryWords } from './product-history-format';

afterEach(cleanup);

let next = 0;
const entry = (action: string, changes: AuditEntry['changes'], note: string | null = null) => ({
  id: `entry-${++next}`,
  at: new Date(0).toISOString(),
  actor: { id: null, name: 'Sam' },
  action,
  changes,
  note,
});

/** The timeline over one loaded page of entries (what the history query holds once it has answered). */
function show(words: HistoryWords, entries: AuditEntry[]) {
  const history = {
    isPending: false,
    isError: false,
    hasNextPage: false,
    data: { pages: [{ result: entries, count: entries.length }], pageParams: [0] },
  } as unknown as UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  render(
    <ChakraProvider value={system}>
      <HistoryTimeline history={history} words={words} emptyDescription="Nothing yet." />
    </ChakraProvider>,
  );
}

describe('product history', () => {
  it('shows prices as money in the product currency', () => {
    show(productHistoryWords('INR'), [entry('updated', [{ field: 'price', before: 15999, after: 14999 }])]);
    const line = screen.getByText('Price:').closest('li');
    expect(line?.textContent).toBe(`Price: ${formatMoney(15999, 'INR')} → ${formatMoney(14999, 'INR')}`);
    expect(line?.textContent).toContain('₹15,999.00');
  });

  it("quotes a reviewer's reason, not the server's sentences", () => {
    show(productHistoryWords('INR'), [
      entry('status', [{ field: 'status', before: 'in_review', after: 'rejected' }], 'Photos are blurry'),
      entry('tags', [], 'Tag “Shirts” was deleted.'),
    ]);
    expect(screen.getByText('“Photos are blurry”')).toBeTruthy();
    expect(screen.getByText('Tag “Shirts” was deleted.')).toBeTruthy();
  });
});

describe('tag history', () => {
  it('shows the server sentences plainly, with the names they quote quoted once', () => {
    show(tagHistoryWords, [entry('created', [], '“Shoes” (SHO), under “Footwear”.')]);
    expect(screen.getByText('“Shoes” (SHO), under “Footwear”.')).toBeTruthy();
  });

  it("shows a publish sentence plainly, with the publisher's note quoted once", () => {
    const note = 'Version 2: 1 added, 0 removed, 0 renamed, 0 moved. Note: “Spring range”';
    show(treeHistoryWords, [
      entry('published', [], note),
      entry('levels', [], '7 tags, 3 levels deep; 7 updated.'),
    ]);
    expect(screen.getByText(note)).toBeTruthy();
    expect(screen.getByText('7 tags, 3 levels deep; 7 updated.')).toBeTruthy();
  });
});
