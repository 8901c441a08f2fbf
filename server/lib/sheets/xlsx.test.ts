// Reading XLSX sheets: what each kind of cell reads as, which sheet is read, line numbers, limits,
// resuming and aborting, and workbooks that cannot be read.
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSheetFormat, openSheet, SHEET_LIMITS } from './index';
import { readAll, rewriteXlsx, temporaryFolder, writeXlsx } from './test-files';

let tmp: Awaited<ReturnType<typeof temporaryFolder>>;
beforeAll(async () => {
  tmp = await temporaryFolder();
});
afterAll(() => tmp.remove());

const sheetError = (code: string) => expect.objectContaining({ name: 'SheetError', code });
const xlsx = (rows: Parameters<typeof writeXlsx>[1][number]['rows']) =>
  writeXlsx(tmp.path('sheet.xlsx'), [{ name: 'Products', rows }]);

describe('openSheet: XLSX', () => {
  it('reads every kind of cell as text: cached formula results, dates, booleans, rich text, links, errors', async () => {
    const file = await writeXlsx(tmp.path('types.xlsx'), [
      {
        name: 'Products',
        formats: { 13: 'yyyy-mm-dd' },
        rows: [
          [
            '  Name ',
            'Total',
            'Date',
            'Active',
            'Rich',
            'Link',
            'Err',
            'Label',
            'Zero',
            'Stamp',
            'Price',
            'Tiny',
            'Next',
          ],
          [
            'Widget',
            { formula: 'K2*2', result: 0.30000000000000004 },
            new Date(Date.UTC(2026, 0, 31)),
            true,
            { richText: [{ text: 'Bold', font: { bold: true } }, { text: ' and plain' }] },
            { text: 'Example site', hyperlink: 'http://example.com' },
            { error: '#N/A' },
            { formula: 'A2&"!"', result: 'Widget!' },
            { formula: 'K2*0', result: 0 },
            new Date(Date.UTC(2026, 0, 31, 13, 45, 7)),
            1234.5,
            0.000001,
            { formula: 'C2+1', result: 46054 },
          ],
          [],
          ['=HYPERLINK("http://x","y")', { formula: 'SUM(1,2)' }, null, false, '  spaced  '],
          [
            'Limits of exceljs 4.4.0',
            { formula: 'D2', result: true },
            { formula: '1/0', result: { error: '#DIV/0!' } },
          ],
        ],
      },
    ]);
    expect(await detectSheetFormat(file)).toBe('xlsx');
    const sheet = await readAll(file);
    expect(sheet.format).toBe('xlsx');
    expect(sheet.headers).toEqual([
      'Name',
      'Total',
      'Date',
      'Active',
      'Rich',
      'Link',
      'Err',
      'Label',
      'Zero',
      'Stamp',
      'Price',
      'Tiny',
      'Next',
    ]);
    expect(sheet.headerLine).toBe(1);
    expect(sheet.rows).toEqual([
      {
        line: 2,
        cells: [
          'Widget',
          '0.30000000000000004',
          '2026-01-31',
          'TRUE',
          'Bold and plain',
          'Example site',
          '#N/A',
          'Widget!',
          '0',
          '2026-01-31T13:45:07.000Z',
          '1234.5',
          '0.000001',
          '2026-02-01',
        ],
      },
      // Row 3 is blank: skipped. A formula without a cached result reads as ''; text stays text.
      {
        line: 4,
        cells: ['=HYPERLINK("http://x","y")', '', '', 'FALSE', '  spaced  ', '', '', '', '', '', '', '', ''],
      },
      // Its streaming reader keeps a formula's boolean result as 1/0, and not which error an error
      // result was: these read as '1' and '#ERROR!' (a plain error cell keeps its text, '#N/A' above).
      {
        line: 5,
        cells: ['Limits of exceljs 4.4.0', '1', '#ERROR!', '', '', '', '', '', '', '', '', '', ''],
      },
    ]);
  });

  it('reads shared strings as Excel shows them: no phonetic guide, _xHHHH_ escapes decoded', async () => {
    const written = await xlsx([
      ['City', 'Note'],
      ['CITY', 'NOTE'],
    ]);
    const file = await rewriteXlsx(written, tmp.path('japanese.xlsx'), {
      'xl/sharedStrings.xml': (xml) =>
        xml
          .replace(
            '<si><t>CITY</t></si>',
            '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>',
          )
          .replace(
            '<si><t>NOTE</t></si>',
            '<si><r><t>one_x000D_</t></r><r><t xml:space="preserve"> two</t></r></si>',
          ),
    });
    expect((await readAll(file)).rows).toEqual([{ line: 2, cells: ['東京', 'one\r two'] }]);
  });

  it('reads the parts in the order they depend on, however the zip stores them', async () => {
    const written = await xlsx([
      ['Name', 'Price'],
      ['Widget', 1.5],
      ['Gadget', 2],
    ]);
    const expected = await readAll(written);
    for (const order of [(names: string[]) => [...names].reverse(), (names: string[]) => [...names].sort()]) {
      const file = await rewriteXlsx(written, tmp.path('reordered.xlsx'), {}, order);
      expect(await readAll(file)).toEqual(expected);
    }
  });

  it('reads the first visible worksheet of the workbook, whatever the order of the zip', async () => {
    const file = await writeXlsx(tmp.path('sheets.xlsx'), [
      { name: 'Settings', state: 'hidden', rows: [['Key'], ['hidden']] },
      { name: 'Products', rows: [['Name'], ['first visible']] },
      { name: 'Other', rows: [['Name'], ['second']] },
    ]);
    expect((await readAll(file)).rows).toEqual([{ line: 2, cells: ['first visible'] }]);
  });

  it('a header only: headers and no rows; leading empty columns keep their place', async () => {
    expect(await readAll(await xlsx([[], [null, ' SKU ', 'Name', null, null]]))).toEqual({
      format: 'xlsx',
      headers: ['', 'SKU', 'Name'],
      headerLine: 2,
      rows: [],
    });
  });

  it('a worksheet without a row has no header', async () => {
    await expect(openSheet(await xlsx([]))).rejects.toEqual(sheetError('NO_HEADER'));
    await expect(openSheet(await xlsx([[], [null, ''], []]))).rejects.toEqual(sheetError('NO_HEADER'));
  });

  it('pads short rows, keeps extra cells, skips blank rows', async () => {
    const sheet = await readAll(await xlsx([['a', 'b', 'c'], [1], [], [1, 2, 3, 4], [null, null, 'x']]));
    expect(sheet.rows).toEqual([
      { line: 2, cells: ['1', '', ''] },
      { line: 4, cells: ['1', '2', '3', '4'] },
      { line: 5, cells: ['', '', 'x'] },
    ]);
  });

  it('refuses too many columns and too long cells', async () => {
    const wide = Array.from({ length: SHEET_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`);
    await expect(openSheet(await xlsx([wide]))).rejects.toEqual(sheetError('TOO_MANY_COLUMNS'));
    const long = await readAll(
      await xlsx([
        ['a', 'b'],
        ['x', 'y'.repeat(SHEET_LIMITS.maxCellChars + 1)],
      ]),
    ).catch((e) => e);
    expect(long).toEqual(sheetError('CELL_TOO_LONG'));
    expect(long.message).toMatch(/Cell B2/);
  });

  it('resumes after a checkpoint and aborts through its signal', async () => {
    const file = await xlsx([['n'], ...Array.from({ length: 2000 }, (_, i) => [i + 2])]);
    const resumed = await readAll(file, { fromLine: 1990 });
    expect(resumed.rows.map((row) => row.line)).toEqual([
      1991, 1992, 1993, 1994, 1995, 1996, 1997, 1998, 1999, 2000, 2001,
    ]);
    expect(resumed.rows[0]?.cells).toEqual(['1991']);

    const controller = new AbortController();
    const sheet = await openSheet(file, { signal: controller.signal });
    let rows = 0;
    const error = await (async () => {
      for await (const _row of sheet.rows()) if (++rows === 5) controller.abort();
    })().catch((e) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(rows).toBe(5);
  });

  it('reports progress in bytes and reaches the size at the end', async () => {
    const file = await xlsx([['n', 't'], ...Array.from({ length: 30_000 }, (_, i) => [i, `text ${i}`])]);
    const sheet = await openSheet(file);
    const seen: number[] = [];
    let rows = 0;
    for await (const _row of sheet.rows()) if (++rows % 5000 === 0) seen.push(sheet.bytesRead());
    expect(rows).toBe(30_000);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[0]).toBeLessThan(sheet.totalBytes);
    expect(seen.every((bytes, i) => bytes >= (seen[i - 1] ?? 0) && bytes <= sheet.totalBytes)).toBe(true);
    expect(sheet.bytesRead()).toBe(sheet.totalBytes);
  });

  it('refuses a decompression bomb: a part that inflates far beyond what a 50 MB file holds', async () => {
    const written = await xlsx([['a'], ['1']]);
    const bomb = await rewriteXlsx(written, tmp.path('bomb.xlsx'), {
      'xl/workbook.xml': (xml) => xml.replace('<sheets>', `<sheets>${' '.repeat(65 * 1024 * 1024)}`),
    });
    const error = await openSheet(bomb).catch((e) => e);
    // Refused as the bytes stream in (budget.ts): 32 KB of text between two tags is already no cell.
    expect(error).toEqual(sheetError('TOO_LARGE'));
    expect(error.message).toMatch(/xl\/workbook.xml holds a text of more than 32,767 characters/);
  });

  it('a zip that names a workbook but cannot be read is MALFORMED', async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const broken = await tmp.file(
      'broken.xlsx',
      zipSync({ 'xl/workbook.xml': encode('<workbook><sheets>') }),
    );
    expect(await detectSheetFormat(broken)).toBe('xlsx');
    await expect(openSheet(broken)).rejects.toEqual(sheetError('MALFORMED'));

    const good = await xlsx([['a'], ['1']]);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(good);
    const truncated = await tmp.file('truncated.xlsx', bytes.subarray(0, bytes.length - 200));
    await expect(readAll(truncated)).rejects.toEqual(expect.objectContaining({ name: 'SheetError' }));
  });
});
