import { describe, expect, it } from 'vitest';
import { MERGE_RULE } from '../../../../contracts/imports';
import {
  cellErrorText,
  changeText,
  defaultPreviewOutcome,
  duplicateText,
  formatEta,
  formatRate,
  isValidated,
  markInactiveQuestion,
  moveHasRows,
  moveQuestion,
  outcomeChips,
  progressFigures,
  resultSummary,
} from './format';
import { makeCounts as counts, makeBatch } from './testing';

describe('how the report words a row', () => {
  it('puts the cell first in an error, then the column and the message', () => {
    expect(
      cellErrorText({
        column: 3,
        header: 'Price',
        cell: 'D17',
        code: 'NUMBER',
        message: 'Write a number like 1299.50.',
      }),
    ).toBe('D17 · Price: Write a number like 1299.50.');
    expect(
      cellErrorText({ column: null, header: null, cell: null, code: 'ROW', message: 'The row is empty.' }),
    ).toBe('The row is empty.');
  });

  it('says what a duplicate duplicates: an earlier line or a staging product', () => {
    expect(duplicateText({ line: 4, productId: null, sku: 'TS-1', title: 'Tee', reason: 'Same SKU' })).toBe(
      'Duplicate of line 4 (SKU TS-1): Same SKU',
    );
    expect(
      duplicateText({
        line: null,
        productId: 'p-1',
        sku: 'TS-9',
        title: 'Blue tee',
        reason: 'Same title and colour',
      }),
    ).toBe('Duplicate of the staging product TS-9 “Blue tee”: Same title and colour');
  });

  it('shows a change before → after, blanks as a dash, and a new product’s values alone', () => {
    const change = { field: 'price', label: 'Price', before: '1200', after: '1299.50' };
    expect(changeText(change, 'update')).toBe('Price: 1200 → 1299.50');
    expect(changeText({ ...change, before: null, after: '' }, 'update')).toBe('Price: — → —');
    expect(changeText({ ...change, before: null }, 'create')).toBe('Price: 1299.50');
  });
});

describe('the counts', () => {
  it('are chips for every row and each outcome, adding up to the total', () => {
    const chips = outcomeChips(counts({ create: 3, update: 2, error: 1 }));
    expect(chips.map((chip) => [chip.outcome, chip.label, chip.count])).toEqual([
      [null, 'All rows', 6],
      ['create', 'New product', 3],
      ['update', 'Update', 2],
      ['unchanged', 'Unchanged', 0],
      ['duplicate', 'Duplicate', 0],
      ['error', 'Error', 1],
    ]);
    const [all, ...each] = chips;
    expect(each.reduce((sum, chip) => sum + chip.count, 0)).toBe(all?.count);
  });

  it('open the preview on the updates, else the new products', () => {
    expect(defaultPreviewOutcome(counts({ create: 2, update: 1 }))).toBe('update');
    expect(defaultPreviewOutcome(counts({ create: 2 }))).toBe('create');
    expect(defaultPreviewOutcome(counts({ unchanged: 5 }))).toBe('unchanged');
  });

  it('list only the results a move produced', () => {
    const results = makeBatch().results;
    expect(resultSummary({ ...results, created: 4, conflict: 1 })).toEqual([
      { result: 'created', count: 4 },
      { result: 'conflict', count: 1 },
    ]);
  });
});

describe('a running batch’s progress', () => {
  it('counts rows read and the share of the file while validating, with the rate', () => {
    const figures = progressFigures(
      makeBatch({ status: 'validating', rowsRead: 12_345, progress: 45, rowsPerSecond: 812.4 }),
    );
    expect(figures).toEqual({
      label: 'Validation progress',
      percent: 45,
      text: '12,345 rows read · 45% of the file',
      rate: '812 rows/s',
      // 12,345 rows are 45% of the file: ~15,088 left at 812 rows/s.
      eta: 'about 19 s left',
    });
  });

  it('counts rows moved of the rows the move takes', () => {
    const figures = progressFigures(
      makeBatch({ status: 'moving', step: 'move', rowsMoved: 300, rowsToMove: 1200, rowsPerSecond: 2.25 }),
    );
    expect(figures).toMatchObject({
      label: 'Move progress',
      percent: 25,
      text: '300 of 1,200 rows moved',
      rate: '2.3 rows/s',
    });
  });

  it('tells the time left of a running step only', () => {
    const moving = makeBatch({ status: 'moving', step: 'move', rowsMoved: 0, rowsToMove: 100_000 });
    expect(progressFigures({ ...moving, rowsPerSecond: 5_000 }).eta).toBe('about 20 s left');
    expect(progressFigures({ ...moving, rowsPerSecond: 500 }).eta).toBe('about 3 min left');
    expect(progressFigures({ ...moving, rowsPerSecond: 10 }).eta).toBe('about 2.8 h left');
    expect(progressFigures({ ...moving, rowsPerSecond: null }).eta).toBeNull();
    expect(progressFigures({ ...moving, status: 'stopped', rowsPerSecond: 500 }).eta).toBeNull();
    expect(formatEta(0, 100)).toBeNull();
    expect(formatEta(1, 1000)).toBe('about 1 s left');
  });

  it('has no share before a queued batch starts, and no rate before it is measured', () => {
    expect(progressFigures(makeBatch({ status: 'queued' }))).toMatchObject({ percent: null, rate: null });
    expect(formatRate(null)).toBeNull();
    expect(formatRate(Number.NaN)).toBeNull();
  });

  it('knows when validation has finished', () => {
    expect(isValidated(makeBatch({ status: 'validating' }))).toBe(false);
    expect(isValidated(makeBatch({ status: 'failed', step: 'validate' }))).toBe(false);
    expect(isValidated(makeBatch({ status: 'ready' }))).toBe(true);
    expect(isValidated(makeBatch({ status: 'failed', step: 'move' }))).toBe(true);
  });
});

describe('the questions before a consequential action', () => {
  const some = counts({ create: 1, update: 12, duplicate: 3, unchanged: 2 });

  it('name the counts a move will act on', () => {
    expect(moveQuestion('full', some).title).toBe('Create 1 product and update 12?');
    expect(moveQuestion('pricing', some).title).toBe('Update the price and inventory of 12 products?');
    expect(moveQuestion('duplicates', some)).toMatchObject({
      title: 'Merge 3 duplicate rows into staging?',
      description: MERGE_RULE,
    });
  });

  it('offer a move only when it has rows to act on', () => {
    expect(moveHasRows('full', counts({ error: 5 }))).toBe(false);
    expect(moveHasRows('full', counts({ create: 1 }))).toBe(true);
    expect(moveHasRows('duplicates', counts({ create: 1 }))).toBe(false);
    expect(moveHasRows('pricing', counts({ unchanged: 1 }))).toBe(true);
  });

  it('name the live products going inactive, the seller, and the missing ones that stay', () => {
    expect(markInactiveQuestion({ missing: 5, willChange: 3 }, 'Demo Store')).toEqual({
      title: 'Mark 3 live products of Demo Store inactive?',
      description: 'They are not in this sheet. 2 other missing products are not live and stay as they are.',
      confirmLabel: 'Mark them inactive',
    });
    expect(markInactiveQuestion({ missing: 2, willChange: 1 }, 'Demo Store').description).toBe(
      'They are not in this sheet. 1 other missing product is not live and stays as it is.',
    );
    expect(markInactiveQuestion({ missing: 1, willChange: 1 }, 'Demo Store')).toMatchObject({
      title: 'Mark 1 live product of Demo Store inactive?',
      description: 'They are not in this sheet.',
    });
  });
});
