import { describe, expect, it } from 'vitest';
import { SharedStringTable } from './shared-strings';

describe('SharedStringTable', () => {
  it('gives back every text by its number, across growth and in any script', () => {
    const table = new SharedStringTable();
    const texts = Array.from({ length: 20_000 }, (_, i) =>
      i % 3 === 0 ? `ज़री कुर्ता ${i} — “quoted”` : i % 3 === 1 ? '' : `Row ${i} ${'x'.repeat(i % 97)}`,
    );
    for (const text of texts) table.push(text);
    expect(table.size).toBe(texts.length);
    for (const i of [0, 1, 2, 3, 4095, 4096, 12_345, 19_999]) expect(table.at(i)).toBe(texts[i]);
    expect(table.at(20_000)).toBeUndefined();
    expect(table.at(-1)).toBeUndefined();
  });

  it('reads as exceljs indexes it', () => {
    const table = new SharedStringTable();
    table.push('a');
    table.push('bé');
    const indexable = table.indexable() as unknown as Record<string, unknown>;
    expect(indexable[1]).toBe('bé');
    expect(indexable['0']).toBe('a');
    expect(indexable[2]).toBeUndefined();
    expect(indexable.length).toBe(2);
  });
});
