import { describe, expect, it } from 'vitest';
import type { MappingTargetOption } from '../../../../contracts/imports';
import { BATCH_ID } from '../shared/testing';
import {
  blocksApplying,
  columnLetter,
  groupTargets,
  mappingChanged,
  mappingProblems,
  mappingRows,
  reprocessBody,
} from './mapping';

const option = (
  target: string,
  label: string,
  patch: Partial<MappingTargetOption> = {},
): MappingTargetOption => ({
  target,
  label,
  kind: target.startsWith('attr:') ? 'attribute' : 'field',
  dataType: target.startsWith('attr:') ? 'text' : null,
  requiredToCreate: false,
  hint: 'text',
  ...patch,
});

const options = [
  option('sku', 'SKU', { requiredToCreate: true }),
  option('title', 'Title', { requiredToCreate: true }),
  option('price', 'Price', { requiredToCreate: true, hint: 'a number like 1299.50' }),
  option('attr:colour', 'Colour', { hint: 'one of: Red, Blue' }),
];

describe('column letters', () => {
  it('follow the spreadsheet: A…Z, then AA, AB…', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

describe('the mapping editor', () => {
  it('lists every column of the sheet, the ones the batch did not map as not imported', () => {
    const rows = mappingRows({ headers: ['Code', 'Name', 'Notes'] }, [
      { index: 0, header: 'Code', target: 'sku' },
      { index: 1, header: 'Name', target: 'title' },
    ]);
    expect(rows).toEqual([
      { index: 0, header: 'Code', target: 'sku' },
      { index: 1, header: 'Name', target: 'title' },
      { index: 2, header: 'Notes', target: null },
    ]);
  });

  it('groups the targets: fields, then attributes', () => {
    const groups = groupTargets(options);
    expect(groups.fields.map((o) => o.target)).toEqual(['sku', 'title', 'price']);
    expect(groups.attributes.map((o) => o.target)).toEqual(['attr:colour']);
  });

  it('refuses one target for two columns and a target no longer offered; warns of missing required ones', () => {
    const rows = [
      { index: 0, header: 'Code', target: 'sku' },
      { index: 1, header: 'Price', target: 'price' },
      { index: 2, header: 'Sale price', target: 'price' },
      { index: 3, header: 'Size', target: 'attr:size' },
    ];
    const problems = mappingProblems(rows, options);
    expect(problems.duplicates).toEqual([
      { target: 'price', label: 'Price', columns: ['B “Price”', 'C “Sale price”'] },
    ]);
    expect(problems.unknown).toEqual([{ column: 'D “Size”', target: 'attr:size' }]);
    expect(problems.missingRequired).toEqual([{ target: 'title', label: 'Title' }]);
    expect(blocksApplying(problems)).toBe(true);
    const fine = mappingProblems(
      [
        { index: 0, header: 'Code', target: 'sku' },
        { index: 1, header: 'Name', target: null },
      ],
      options,
    );
    expect(blocksApplying(fine)).toBe(false);
    expect(fine.missingRequired.map((m) => m.target)).toEqual(['title', 'price']);
  });

  it('sends the whole mapping, unmapped columns as null, with the blank-cell rule and the choice to remember', () => {
    const rows = [
      { index: 0, header: 'Code', target: 'sku' },
      { index: 1, header: 'Notes', target: null },
    ];
    expect(reprocessBody(BATCH_ID, rows, 'clear', false)).toEqual({
      batch: BATCH_ID,
      mapping: [
        { index: 0, header: 'Code', target: 'sku' },
        { index: 1, header: 'Notes', target: null },
      ],
      blankPolicy: 'clear',
      saveMapping: false,
    });
  });

  it('knows when the editor differs from what the batch ran with', () => {
    const rows = [{ index: 0, header: 'Code', target: 'sku' }];
    expect(mappingChanged(rows, rows, 'keep', 'keep')).toBe(false);
    expect(mappingChanged([{ ...rows[0]!, target: null }], rows, 'keep', 'keep')).toBe(true);
    expect(mappingChanged(rows, rows, 'clear', 'keep')).toBe(true);
  });
});
