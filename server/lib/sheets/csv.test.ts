// Reading CSV sheets: encodings, delimiters, quoting, line numbers, limits, resuming and aborting.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSheetFormat, openSheet, SHEET_LIMITS } from './index';
import { plainZip, pngBytes, readAll, temporaryFolder } from './test-files';

let tmp: Awaited<ReturnType<typeof temporaryFolder>>;
beforeAll(async () => {
  tmp = await temporaryFolder();
});
afterAll(() => tmp.remove());

const csv = (text: string, name = 'sheet.csv') => tmp.file(name, text);
const sheetError = (code: string) => expect.objectContaining({ name: 'SheetError', code });

describe('detectSheetFormat', () => {
  it('an empty file is EMPTY_FILE', async () => {
    const file = await csv('');
    await expect(detectSheetFormat(file)).rejects.toEqual(sheetError('EMPTY_FILE'));
    await expect(openSheet(file)).rejects.toEqual(sheetError('EMPTY_FILE'));
    await expect(openSheet(file, { format: 'csv' })).rejects.toEqual(sheetError('EMPTY_FILE'));
    await expect(openSheet(file, { format: 'xlsx' })).rejects.toEqual(sheetError('EMPTY_FILE'));
  });

  it('text is csv, whatever the name', async () => {
    expect(await detectSheetFormat(await csv('a,b\n1,2\n', 'sheet.xlsx'))).toBe('csv');
    // Not UTF-8, but text: taken as CSV here, refused with a message about the encoding when read.
    expect(
      await detectSheetFormat(await tmp.file('latin1.csv', Buffer.from('name\ncaf\xe9\n', 'latin1'))),
    ).toBe('csv');
  });

  it.each([
    ['a PNG picture', pngBytes(), /PNG picture/],
    ['random bytes', randomBytes(4096), /binary file/],
    ['a PDF', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n', 'latin1'), /PDF document/],
    ['a zip that is not a workbook', plainZip(), /ZIP archive that holds no Excel workbook/],
    ['a damaged zip', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(300)]), /damaged ZIP/],
    [
      'an old .xls (OLE2)',
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
      /\.xls/,
    ],
    ['an HTML table saved as .xls', Buffer.from('<html><body><table><tr><td>1</td></tr></table>'), /HTML/],
  ])('%s named sheet.csv is NOT_A_SHEET', async (_what, bytes, reason) => {
    const file = await tmp.file('sheet.csv', bytes);
    const error = await detectSheetFormat(file).catch((e: unknown) => e);
    expect(error).toEqual(sheetError('NOT_A_SHEET'));
    expect((error as Error).message).toMatch(/is not a CSV or XLSX sheet/);
    expect((error as Error).message).toMatch(reason);
    await expect(openSheet(file)).rejects.toEqual(sheetError('NOT_A_SHEET'));
  });
});

describe('openSheet: CSV', () => {
  it('a header only: its headers, trimmed, and no rows', async () => {
    for (const text of ['  Name , Price ,SKU\n', ' Name , Price ,SKU', 'Name,Price,SKU,, \r\n']) {
      const sheet = await readAll(await csv(text));
      expect(sheet).toEqual({ format: 'csv', headers: ['Name', 'Price', 'SKU'], headerLine: 1, rows: [] });
    }
  });

  it('strips a UTF-8 BOM', async () => {
    const sheet = await readAll(await csv('\uFEFFName,Price\nCafé,2\n'));
    expect(sheet.headers).toEqual(['Name', 'Price']);
    expect(sheet.rows).toEqual([{ line: 2, cells: ['Café', '2'] }]);
  });

  it('reads semicolon and tab delimited files, from the header line', async () => {
    const semicolons = await readAll(await csv('Name;Price;Notes\nWidget;1,50;"a;b"\n'));
    expect(semicolons.headers).toEqual(['Name', 'Price', 'Notes']);
    expect(semicolons.rows[0]?.cells).toEqual(['Widget', '1,50', 'a;b']);

    const tabs = await readAll(await csv('Name\tPrice, in €\tNotes\nWidget\t1,50\tx;y\n'));
    expect(tabs.headers).toEqual(['Name', 'Price, in €', 'Notes']);
    expect(tabs.rows[0]?.cells).toEqual(['Widget', '1,50', 'x;y']);

    // Delimiters inside a quoted header cell do not count.
    const quoted = await readAll(await csv('"a;b;c;d";Price,x;Notes\n1;2;3\n'));
    expect(quoted.headers).toEqual(['a;b;c;d', 'Price,x', 'Notes']);
  });

  it('a quoted cell with line breaks is one row; line numbers count rows, not text lines', async () => {
    const sheet = await readAll(
      await csv('Name,Notes\r\nA,"first\r\nsecond\r\nthird"\r\nB,"say ""hi"""\r\nC,plain\r\n'),
    );
    expect(sheet.rows).toEqual([
      { line: 2, cells: ['A', 'first\r\nsecond\r\nthird'] },
      { line: 3, cells: ['B', 'say "hi"'] },
      { line: 4, cells: ['C', 'plain'] },
    ]);
  });

  it('skips blank rows, keeping the line numbers of the others', async () => {
    const sheet = await readAll(await csv('\n ,, \nName,Price\n\nA,1\n,,\n  \nB,2\n\n'));
    expect(sheet.headerLine).toBe(3);
    expect(sheet.rows).toEqual([
      { line: 5, cells: ['A', '1'] },
      { line: 8, cells: ['B', '2'] },
    ]);
  });

  it('rows shorter or longer than the header: padded, extra cells kept, empty ones at the end dropped', async () => {
    const sheet = await readAll(await csv('a,b,c\n1\n1,2,3,4\n1,2,3,,,\n,,x\n'));
    expect(sheet.rows.map((row) => row.cells)).toEqual([
      ['1', '', ''],
      ['1', '2', '3', '4'],
      ['1', '2', '3'],
      ['', '', 'x'],
    ]);
  });

  it('keeps formula-looking text verbatim, and trims nothing in data cells', async () => {
    const sheet = await readAll(
      await csv('Name,Link,Sum\n  padded  ,"=HYPERLINK(""http://x"",""y"")",=1+2\n@SUM(A1),+1,-2\n'),
    );
    expect(sheet.rows.map((row) => row.cells)).toEqual([
      ['  padded  ', '=HYPERLINK("http://x","y")', '=1+2'],
      ['@SUM(A1)', '+1', '-2'],
    ]);
  });

  it('refuses text that is not UTF-8, telling the user to save as CSV UTF-8', async () => {
    const inHeader = await tmp.file('latin1.csv', Buffer.from('caf\xe9,price\n', 'latin1'));
    const error = await openSheet(inHeader).catch((e: unknown) => e);
    expect(error).toEqual(sheetError('BAD_ENCODING'));
    expect((error as Error).message).toMatch(/CSV UTF-8/);
    expect((error as Error).message).toMatch(/line 1\b/);

    const later = await tmp.file('latin1.csv', Buffer.from('name,price\nok,1\ncaf\xe9,2\n', 'latin1'));
    const rows = await readAll(later).catch((e: unknown) => e);
    expect(rows).toEqual(sheetError('BAD_ENCODING'));
    expect((rows as Error).message).toMatch(/line 3\b/);

    // A character cut off by the end of the file.
    const cut = await tmp.file('cut.csv', Buffer.from([...Buffer.from('name\ncaf'), 0xc3]));
    await expect(readAll(cut)).rejects.toEqual(sheetError('BAD_ENCODING'));
  });

  it('reads UTF-16 (LE and BE) after its BOM', async () => {
    const text = 'Name;Price\r\nCafé ☕;1,5\r\n"Two\r\nlines";2\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    for (const bytes of [le, be]) {
      const file = await tmp.file('utf16.csv', bytes);
      expect(await detectSheetFormat(file)).toBe('csv');
      const sheet = await readAll(file);
      expect(sheet.headers).toEqual(['Name', 'Price']);
      expect(sheet.rows).toEqual([
        { line: 2, cells: ['Café ☕', '1,5'] },
        { line: 3, cells: ['Two\r\nlines', '2'] },
      ]);
    }
  });

  it('refuses malformed quoting as MALFORMED, naming the row', async () => {
    const unclosed = await readAll(await csv('Name,Notes\nA,ok\nB,"never closed\nC,x\n')).catch((e) => e);
    expect(unclosed).toEqual(sheetError('MALFORMED'));
    expect(unclosed.message).toMatch(/never closed at row 3/);

    const trailing = await readAll(await csv('Name,Notes\nA,"quoted"then more\n')).catch((e) => e);
    expect(trailing).toEqual(sheetError('MALFORMED'));
    expect(trailing.message).toMatch(/followed by more text .* at row 2/);

    const stray = await readAll(await csv('Name,Size\nA,1\nScreen,15" wide\n')).catch((e) => e);
    expect(stray).toEqual(sheetError('MALFORMED'));
    expect(stray.message).toMatch(/quote inside a cell that does not start with one at row 3/);
  });

  it('a file of blank lines has no header', async () => {
    await expect(openSheet(await csv('\n\n ,, \n'))).rejects.toEqual(sheetError('NO_HEADER'));
  });

  it('refuses more columns than allowed, and too long cells, naming where', async () => {
    const wide = Array.from({ length: SHEET_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`).join(',');
    await expect(openSheet(await csv(`${wide}\n`))).rejects.toEqual(sheetError('TOO_MANY_COLUMNS'));
    const wideRow = await readAll(await csv(`a,b\n1,2\n${wide}\n`)).catch((e) => e);
    expect(wideRow).toEqual(sheetError('TOO_MANY_COLUMNS'));
    expect(wideRow.message).toMatch(/Row 3 has 201 cells/);

    const long = 'x'.repeat(SHEET_LIMITS.maxCellChars + 1);
    const tooLong = await readAll(await csv(`Name,Notes\nA,ok\nB,${long}\n`)).catch((e) => e);
    expect(tooLong).toEqual(sheetError('CELL_TOO_LONG'));
    expect(tooLong.message).toMatch(/Cell B3 holds 32,768 characters/);
    // Exactly at the limit is fine.
    const atLimit = await readAll(await csv(`Name\n${'y'.repeat(SHEET_LIMITS.maxCellChars)}\n`));
    expect(atLimit.rows[0]?.cells[0]).toHaveLength(SHEET_LIMITS.maxCellChars);
  });

  it('stops at more rows than allowed with TOO_MANY_ROWS', async () => {
    const file = await csv(`n\n${'1\n'.repeat(SHEET_LIMITS.maxRows + 1)}`);
    const sheet = await openSheet(file);
    let count = 0;
    const error = await (async () => {
      for await (const _row of sheet.rows()) count++;
    })().catch((e) => e);
    expect(error).toEqual(sheetError('TOO_MANY_ROWS'));
    expect(count).toBe(SHEET_LIMITS.maxRows);
  });

  it('resumes after a checkpoint: fromLine skips the rows up to that line', async () => {
    const file = await csv('n,v\n1,a\n2,"b\nb"\n\n4,d\n5,e\n');
    const resumed = await readAll(file, { fromLine: 3 });
    expect(resumed.headers).toEqual(['n', 'v']);
    expect(resumed.rows).toEqual([
      { line: 5, cells: ['4', 'd'] },
      { line: 6, cells: ['5', 'e'] },
    ]);
    expect((await readAll(file, { fromLine: 6 })).rows).toEqual([]);
  });

  it('reports progress in bytes, and reaches the size at the end', async () => {
    const file = await csv(`n\n${'12345\n'.repeat(100_000)}`);
    const sheet = await openSheet(file);
    expect(sheet.totalBytes).toBe(2 + 600_000);
    const seen: number[] = [];
    let rows = 0;
    for await (const _row of sheet.rows()) if (++rows % 10_000 === 0) seen.push(sheet.bytesRead());
    expect(
      seen.every((bytes, i) => bytes > 0 && bytes <= sheet.totalBytes && bytes >= (seen[i - 1] ?? 0)),
    ).toBe(true);
    expect(seen[0]).toBeLessThan(sheet.totalBytes); // it streams: not all read at the first rows
    expect(sheet.bytesRead()).toBe(sheet.totalBytes);
  });

  it('aborts through its signal, before opening or while reading', async () => {
    const file = await csv(`n\n${'1\n'.repeat(50_000)}`);
    const aborted = new AbortController();
    aborted.abort();
    await expect(openSheet(file, { signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const controller = new AbortController();
    const sheet = await openSheet(file, { signal: controller.signal });
    let rows = 0;
    const error = await (async () => {
      for await (const _row of sheet.rows()) if (++rows === 3) controller.abort();
    })().catch((e) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(rows).toBe(3);
  });

  it('an abort while the caller is busy with a row leaves no unhandled rejection behind', async () => {
    // The batch read ahead fails when the abort ends the worker, before anyone awaits it (a job stopped
    // while it writes a chunk): that must not surface as an unhandled rejection.
    const file = await csv(`n\n${'1\n'.repeat(50_000)}`);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      const sheet = await openSheet(file, { signal: controller.signal });
      const rows = sheet.rows()[Symbol.asyncIterator]();
      await rows.next();
      controller.abort(new Error('the worker is stopping'));
      // The caller is busy elsewhere while the worker ends and the read-ahead fails.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      await expect(rows.next()).rejects.toThrow('the worker is stopping');
      await sheet.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rows() is read once; close() stops reading', async () => {
    const sheet = await openSheet(await csv('a\n1\n2\n'));
    for await (const _row of sheet.rows()) break;
    await expect(
      (async () => {
        for await (const _row of sheet.rows()) {
          // never reached
        }
      })(),
    ).rejects.toThrow(/iterated once/);
    await sheet.close();
    const unread = await openSheet(await csv('a\n1\n'));
    await unread.close();
  });
});
