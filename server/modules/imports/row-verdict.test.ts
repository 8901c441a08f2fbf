// Row verdicts, mapping guesses, cell readers and title templates: the rules of validation, without
// a database (the catalogue is a small fake context).
import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../../contracts/catalog';
import type { ColumnMapping } from '../../../contracts/imports';
import type { AttributeDef } from '../attributes/attribute-values';
import type { CatalogContext, CategoryRef } from './catalog-context';
import { optionIndexOf, readInventory, readPrice } from './cell-values';
import { guessMapping, headerKey, mappingProblem } from './mapping';
import {
  type BatchState,
  type ChunkLookups,
  type ExistingProduct,
  previewChanges,
  rowVerdict,
  type VerdictOptions,
} from './row-verdict';
import { fillTemplate, placeholdersOf } from './title-template';

const colour: AttributeDef = {
  id: 1,
  code: 'colour',
  label: 'Colour',
  dataType: 'ENUMERATED',
  attributeType: 'SINGLE',
  isRequired: true,
  unit: null,
  groupName: 'General',
  options: new Map([
    [11, 'Red'],
    [12, 'Blue'],
  ]),
};
const ram: AttributeDef = {
  id: 2,
  code: 'ram_gb',
  label: 'RAM',
  dataType: 'NUMBER',
  attributeType: 'SINGLE',
  isRequired: false,
  unit: 'GB',
  groupName: 'Technical',
  options: new Map(),
};
const tags: AttributeDef = {
  id: 3,
  code: 'keywords',
  label: 'Keywords',
  dataType: 'STRING',
  attributeType: 'MULTI',
  isRequired: false,
  unit: null,
  groupName: 'Marketing',
  options: new Map(),
};
const defs = [colour, ram, tags];
const phones: CategoryRef = { id: 'c-phones', name: 'Phones', path: 'Electronics > Phones' };
const shirts: CategoryRef = { id: 'c-shirts', name: 'Shirts', path: 'Apparel > Shirts' };

const catalog: CatalogContext = {
  attributeByCode: new Map(defs.map((def) => [def.code, def])),
  attributeById: new Map(defs.map((def) => [def.id, def])),
  options: optionIndexOf(defs),
  categoryById: new Map([phones, shirts].map((ref) => [ref.id, ref])),
  resolveCategory: (text) =>
    [phones, shirts].find((ref) =>
      [ref.name, ref.path].map((name) => name.toLowerCase()).includes(text.trim().toLowerCase()),
    ) ?? `There is no category "${text.trim()}".`,
  setOf: (id) =>
    new Map((id === phones.id ? [colour, ram, tags] : [colour, tags]).map((def) => [def.id, def])),
};

const headers = ['SKU', 'Title', 'Category', 'Price', 'Stock', 'Colour', 'RAM', 'Keywords', 'Notes'];
const mapping: ColumnMapping[] = guessMapping(headers, defs);
const options = (overrides: Partial<VerdictOptions> = {}): VerdictOptions => ({
  mapping,
  blankPolicy: 'keep',
  catalog,
  keyAttributeIds: [colour.id],
  ...overrides,
});
const noLookups: ChunkLookups = { bySku: new Map(), byTitle: new Map() };
const fresh = (): BatchState => ({ seenSku: new Map(), seenDup: new Map() });
const row = (line: number, cells: string[]) => ({ line, cells });

const stored: ExistingProduct = {
  id: 'p-1',
  sku: 'PH-1',
  skuKey: 'ph-1',
  title: 'Phone one',
  titleKey: 'phone one',
  categoryId: phones.id,
  priceMinor: 99_900,
  currency: 'INR',
  inventory: 5,
  weight: null,
  weightUnit: 'kg',
  attributeValues: [
    { keyId: colour.id, value: 'Red', valueId: 11 },
    { keyId: ram.id, value: 8 },
  ] as AttributeValue[],
};
const withStored: ChunkLookups = {
  bySku: new Map([[stored.skuKey, stored]]),
  byTitle: new Map([[stored.titleKey, [stored]]]),
};

describe('guessMapping', () => {
  it('matches fields by synonyms and attributes by code or label, ignoring case, accents and punctuation', () => {
    expect(mapping.map((column) => column.target)).toEqual([
      'sku',
      'title',
      'category',
      'price',
      'inventory',
      'attr:colour',
      'attr:ram_gb',
      'attr:keywords',
      null,
    ]);
    expect(guessMapping(['  CATÉGORIE ', 'Ram-GB', 'sku'], defs).map((column) => column.target)).toEqual([
      null,
      'attr:ram_gb',
      'sku',
    ]);
    expect(headerKey('Country of origin')).toBe(headerKey('country_of_origin'));
  });

  it('maps a duplicate header once and prefers the seller’s remembered choice', () => {
    expect(
      guessMapping(['SKU', 'sku', 'Notes'], defs, { notes: 'title' }).map((column) => column.target),
    ).toEqual(['sku', null, 'title']);
  });

  it('refuses a mapping without SKU, with a target twice, or with an unknown attribute', () => {
    const byCode = new Map(defs.map((def) => [def.code, def]));
    expect(mappingProblem(mapping, headers, byCode)).toBeNull();
    expect(
      mappingProblem(
        mapping.map((c) => (c.target === 'sku' ? { ...c, target: null } : c)),
        headers,
        byCode,
      ),
    ).toMatch(/SKU/);
    expect(
      mappingProblem(
        mapping.map((c) => (c.index === 8 ? { ...c, target: 'title' } : c)),
        headers,
        byCode,
      ),
    ).toMatch(/Two columns/);
    expect(
      mappingProblem(
        mapping.map((c) => (c.index === 8 ? { ...c, target: 'attr:nope' } : c)),
        headers,
        byCode,
      ),
    ).toMatch(/no attribute/);
    expect(mappingProblem(mapping.slice(1), headers, byCode)).toMatch(/every column/);
  });
});

describe('cell readers', () => {
  it('reads prices with thousands separators into minor units and refuses words and three decimals', () => {
    expect(readPrice('1,299.50')).toEqual({ value: 129_950 });
    expect(readPrice('799')).toEqual({ value: 79_900 });
    expect(readPrice('seven')).toHaveProperty('problem');
    expect(readPrice('1.005')).toHaveProperty('problem');
    expect(readPrice('-5')).toHaveProperty('problem');
    expect(readInventory('12.5')).toHaveProperty('problem');
    expect(readInventory('1,200')).toEqual({ value: 1200 });
  });
});

describe('rowVerdict', () => {
  it('creates a new product with its attributes, and names each bad cell', () => {
    const good = rowVerdict(
      row(2, [
        'PH-9',
        'Phone nine',
        'Electronics > Phones',
        '15,999',
        '3',
        'blue',
        '12',
        'fast|5g|fast',
        'x',
      ]),
      options(),
      noLookups,
      fresh(),
    );
    expect(good.outcome).toBe('create');
    expect(good.planned).toMatchObject({
      kind: 'create',
      fields: { title: 'Phone nine', categoryId: phones.id, priceMinor: 1_599_900, inventory: 3 },
    });
    const planned = good.planned as { attributeValues: AttributeValue[] };
    expect(planned.attributeValues).toEqual([
      { keyId: colour.id, value: 'Blue', valueId: 12 },
      { keyId: ram.id, value: 12 },
      { keyId: tags.id, values: [{ value: 'fast' }, { value: '5g' }] },
    ]);

    const bad = rowVerdict(
      row(3, ['PH 10', '', 'Nowhere', 'abc', '1', 'Green', 'eight', '', '']),
      options(),
      noLookups,
      fresh(),
    );
    expect(bad.outcome).toBe('error');
    expect(bad.errors.map((error) => [error.cell, error.code])).toEqual([
      ['A3', 'INVALID_SKU'],
      ['C3', 'UNKNOWN_CATEGORY'],
      ['D3', 'INVALID_PRICE'],
    ]);
    const missing = rowVerdict(
      row(4, ['PH-11', '', 'Phones', '10', '1', 'Green', 'eight', '', '']),
      options(),
      noLookups,
      fresh(),
    );
    expect(missing.errors.map((error) => [error.cell, error.code])).toEqual([
      ['B4', 'TITLE_REQUIRED'],
      ['F4', 'INVALID_ATTRIBUTE'],
      ['G4', 'INVALID_ATTRIBUTE'],
    ]);
  });

  it('refuses a value for an attribute outside the row’s category', () => {
    const verdict = rowVerdict(
      row(2, ['SH-1', 'Shirt', 'Shirts', '10', '1', 'Red', '8', '', '']),
      options(),
      noLookups,
      fresh(),
    );
    expect(verdict.errors).toEqual([
      expect.objectContaining({ cell: 'G2', code: 'ATTRIBUTE_NOT_IN_CATEGORY' }),
    ]);
  });

  it('previews an update field by field, and an identical row as unchanged', () => {
    const update = rowVerdict(
      row(2, ['ph-1', 'Phone one', '', '1,099', '5', 'Blue', '', '', '']),
      options(),
      withStored,
      fresh(),
    );
    expect(update.outcome).toBe('update');
    expect(update.productId).toBe(stored.id);
    expect(previewChanges(update.planned, options().catalog)).toEqual([
      { field: 'priceMinor', label: 'Price', before: '999.00', after: '1099.00' },
      { field: 'attr:1', label: 'Colour', before: 'Red', after: 'Blue' },
    ]);
    const same = rowVerdict(
      row(3, ['PH-1', 'Phone one', '', '999', '', 'Red', '8', '', '']),
      options(),
      withStored,
      fresh(),
    );
    expect(same.outcome).toBe('unchanged');
  });

  it('keeps stored values for blank cells by default and clears them with the clear rule (never the title)', () => {
    const cells = ['PH-1', '', '', '', '', 'Red', '', '', ''];
    expect(rowVerdict(row(2, cells), options(), withStored, fresh()).outcome).toBe('unchanged');
    const cleared = rowVerdict(row(2, cells), options({ blankPolicy: 'clear' }), withStored, fresh());
    expect(cleared.outcome).toBe('update');
    expect(
      previewChanges(cleared.planned, options().catalog).map((change) => [
        change.label,
        change.before,
        change.after,
      ]),
    ).toEqual([
      ['Inventory', '5', '0'],
      ['RAM', '8 GB', null],
    ]);
  });

  it('finds duplicates: the same SKU, the same title and key attributes in the sheet or in staging', () => {
    const state = fresh();
    const first = rowVerdict(
      row(2, ['PH-20', 'Pixel', 'Phones', '10', '1', 'Red', '', '', '']),
      options(),
      noLookups,
      state,
    );
    expect(first.outcome).toBe('create');
    const sameSku = rowVerdict(
      row(3, ['ph-20', 'Other', 'Phones', '10', '1', 'Blue', '', '', '']),
      options(),
      noLookups,
      state,
    );
    expect(sameSku).toMatchObject({
      outcome: 'duplicate',
      duplicateOf: { line: 2, reason: 'Line 2 has the same SKU.' },
    });
    const sameKey = rowVerdict(
      row(4, ['PH-21', ' PIXEL ', 'Phones', '10', '1', 'red', '', '', '']),
      options(),
      noLookups,
      state,
    );
    expect(sameKey).toMatchObject({ outcome: 'duplicate', duplicateOf: { line: 2 } });
    const otherColour = rowVerdict(
      row(5, ['PH-22', 'Pixel', 'Phones', '10', '1', 'Blue', '', '', '']),
      options(),
      noLookups,
      state,
    );
    expect(otherColour.outcome).toBe('create');
    const inStaging = rowVerdict(
      row(6, ['PH-30', 'Phone one', 'Phones', '10', '1', 'Red', '', '', '']),
      options(),
      withStored,
      state,
    );
    expect(inStaging).toMatchObject({
      outcome: 'duplicate',
      productId: stored.id,
      duplicateOf: { productId: stored.id, line: null },
    });
  });

  it('uses an applied title instead of the cell', () => {
    const verdict = rowVerdict(
      row(2, ['PH-40', '', 'Phones', '10', '1', '', '', '', '']),
      options({ titleOverrides: new Map([[2, 'Suggested phone']]) }),
      noLookups,
      fresh(),
    );
    expect(verdict).toMatchObject({ outcome: 'create', title: 'Suggested phone' });
  });
});

describe('title templates', () => {
  it('fills placeholders and drops empty ones with their separators', () => {
    const values: Record<string, string> = { brand: 'Zenith', model: 'X2', colour: '', size: 'M' };
    expect(fillTemplate('{brand} {model} - {colour} - {size}', (name) => values[name] ?? null)).toBe(
      'Zenith X2 - M',
    );
    expect(fillTemplate('{colour} | {brand}', (name) => values[name] ?? null)).toBe('Zenith');
    expect(fillTemplate('{colour}', () => null)).toBe('');
    expect(placeholdersOf('{brand} and {model}')).toEqual(['brand', 'model']);
  });
});
