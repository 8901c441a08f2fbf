// XLSX records, streamed with exceljs's streaming reader (ExcelJS.stream.xlsx.WorkbookReader).
//
// Its own entry point, `for await (const sheet of reader)`, reads the zip in one pass, in the order
// the parts were stored, and can drop parts when the consumer pauses between them: exceljs issue
// #3064, open in 4.4.0 (unzipper 0.10 emits 'end' on 'finish' while entries may still be queued in its
// paused stream). It did not happen in runs on this machine, but the code allows it, and then the
// workbook part is lost (a TypeError), or the shared strings (cells read as `{ sharedString: n }`),
// or the styles (dates read as numbers). That entry point also copies every sheet stored before the
// shared strings (Excel's own order) to a temporary file first, and knows sheets by their place in
// the zip rather than in the workbook.
//
// So the parts are found through the zip's central directory (unzipper's Open, the library exceljs
// reads zips with) and handed to the same WorkbookReader's part parsers in the order they depend on
// one another, which is what the pending upstream fix (exceljs PR #3065) does inside the library: the
// relationships and the workbook, then the shared strings and the styles, then the one worksheet
// wanted, row by row. These are the reader's internal methods (underscored); exceljs is pinned to an
// exact version and the tests read real workbooks through them, so an upgrade that changes them fails
// the tests rather than production.
//
// The shared strings are the one part not read by the streaming reader's own code: it takes a cell's
// phonetic guide (<rPh>, which Excel adds to text typed with a Japanese IME) for the cell's text, and
// leaves Excel's _xHHHH_ escapes undecoded. They are read with the <si> parser of exceljs's
// whole-workbook reader instead, which gets both right, and kept as plain text, off the heap
// (shared-strings.ts).
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import parseSax from 'exceljs/lib/utils/parse-sax.js';
import SharedStringXform from 'exceljs/lib/xlsx/xform/strings/shared-string-xform.js';
import { budgetedPart, InflatedBudget } from './budget';
import { columnLetters, SHEET_LIMITS, SheetError } from './errors';
import { SharedStringTable } from './shared-strings';
import { abortReason, type RawRecord, type RecordSource } from './source';
import { type OpenedZip, openZip } from './zip';

interface Relationship {
  Id: string;
  Type: string;
  Target: string;
}

interface WorkbookSheet {
  name: string;
  rId: string;
  state?: string;
}

/** The part of exceljs's WorkbookReader (4.4.0) used here, internal methods included. */
interface WorkbookReaderInternals {
  workbookRels?: Relationship[];
  /** What cells of type "s" read as, by index. */
  sharedStrings?: ArrayLike<string>;
  model?: { sheets?: WorkbookSheet[] };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(
    entry: Readable,
    sheetNo: string,
  ): Iterator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

const MB = 1024 * 1024;
/**
 * The most a part may inflate to (the whole file has its own budget, budget.ts): the workbook's small
 * parts, the shared strings (their text is held, off the heap, while the sheet is read), the worksheet
 * (streamed, so only a bound on time).
 */
const INFLATED_LIMITS = { part: 32 * MB, sharedStrings: 256 * MB, worksheet: 1024 * MB };

const damaged = (what: string, cause?: unknown) =>
  new SheetError(
    `The XLSX file cannot be read: ${what}. Open it in your spreadsheet app, save it again as .xlsx and upload that.`,
    'MALFORMED',
    { cause },
  );

const { ValueType } = ExcelJS;

/** Excel's day numbers to a date: the same rule exceljs applies to the date cells it recognises. */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/** Whether a number format shows a date or a time: the same rule exceljs applies to plain cells. */
function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const bare = format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]+/.test(bare);
}

/** `2026-01-31` for a date at midnight UTC, else the full ISO form. */
export function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, -14) : iso;
}

type RichText = { richText: { text?: string }[] };
const plainText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    // An empty <si/> parses as {}.
    return 'richText' in value ? (value as RichText).richText.map((run) => run.text ?? '').join('') : '';
  }
  return value === undefined || value === null ? '' : String(value);
};

/** A formula's cached result as text (never the formula itself). */
function formulaResult(cell: ExcelJS.Cell, date1904: boolean): string {
  // `cell.result` is the stored result as read; `cell.value.result` drops falsy ones such as 0.
  const result: unknown = cell.result;
  if (result === undefined || result === null) return '';
  if (typeof result === 'number') {
    // exceljs 4.4.0 reads an error result (#N/A, #DIV/0!…) as NaN, losing which error it was.
    if (Number.isNaN(result)) return '#ERROR!';
    return isDateFormat(cell.numFmt) ? isoDate(excelDate(result, date1904)) : String(result);
  }
  if (typeof result === 'boolean') return result ? 'TRUE' : 'FALSE';
  if (result instanceof Date) return isoDate(result);
  if (typeof result === 'object' && 'error' in result) return String((result as { error: unknown }).error);
  return plainText(result);
}

/** One cell as the text the import sees. */
function cellText(cell: ExcelJS.Cell, date1904: boolean): string {
  const value: unknown = cell.value;
  switch (cell.type) {
    case ValueType.Null:
    case ValueType.Merge:
      return '';
    case ValueType.Number:
      return String(value);
    case ValueType.String:
      return value as string;
    case ValueType.Date:
      return isoDate(value as Date);
    case ValueType.Boolean:
      return value ? 'TRUE' : 'FALSE';
    case ValueType.Error:
      return String((value as { error: unknown }).error);
    case ValueType.RichText:
      return plainText(value);
    case ValueType.Hyperlink:
      return plainText((value as { text: unknown }).text);
    case ValueType.Formula:
      return formulaResult(cell, date1904);
    case ValueType.SharedString:
      throw damaged('a cell refers to a shared text the workbook does not hold');
    default:
      return plainText(value);
  }
}

/** The shared strings, each as plain text (rich text's runs joined, phonetic guides left out). */
async function readSharedStrings(stream: Readable): Promise<SharedStringTable> {
  const strings = new SharedStringTable();
  const si = new SharedStringXform();
  let inside = false;
  // The text of the <si> so far (phonetic guides included), counted as each text arrives: past the cell
  // limit the rest is dropped, so an oversized shared string is never built whole, and the one extra
  // character kept makes the cells that use it fail the cell check (open.ts), which names the cell.
  let chars = 0;
  for await (const events of parseSax(stream)) {
    for (const event of events) {
      if (!inside) {
        if (event.eventType === 'opentag' && event.value.name === 'si') {
          inside = si.parseOpen(event.value);
          chars = 0;
        }
      } else if (event.eventType === 'opentag') {
        si.parseOpen(event.value);
      } else if (event.eventType === 'text') {
        const room = SHEET_LIMITS.maxCellChars + 1 - chars;
        if (room > 0) si.parseText(event.value.length > room ? event.value.slice(0, room) : event.value);
        chars += event.value.length;
      } else if (!si.parseClose(event.value.name)) {
        strings.push(plainText(si.model));
        inside = false;
      }
    }
  }
  return strings;
}

/** The path of a part named by a relationship of xl/workbook.xml. */
function partPath(target: string): string {
  return target.startsWith('/') ? path.posix.normalize(target.slice(1)) : path.posix.join('xl', target);
}

export async function openXlsxSource(filePath: string, signal?: AbortSignal): Promise<RecordSource> {
  let zip: OpenedZip;
  try {
    zip = await openZip(filePath);
  } catch (error) {
    throw damaged('it is not a complete ZIP archive', error);
  }
  const reading = new Set<Readable>();
  const onAbort = () => {
    for (const stream of reading) stream.destroy(abortReason(signal as AbortSignal) as Error);
    zip.close();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    signal?.removeEventListener('abort', onAbort);
    for (const stream of reading) stream.destroy();
    zip.close();
  };

  // Progress: the compressed size of the parts read before the worksheet, then the worksheet's share
  // of its own compressed size as its inflated text is read (the streams reading the file itself run
  // ahead of the parsers and overlap, so their byte counts would tell little).
  let partsDone = 0;
  let sheetSize = { compressed: 0, inflated: 0 };
  let sheetRead = 0;

  const budget = new InflatedBudget(zip.compressedRead);
  /** The part's content, inflated, within its limit and the file's budgets (budget.ts). */
  const inflated = (name: string, limit: number, onBytes?: (bytes: number) => void): Readable => {
    const entry = zip.entries.get(name);
    if (!entry) throw damaged(`its part ${name} is missing`);
    const meter = budgetedPart({
      part: name,
      partLimit: limit,
      budget,
      onBytes,
      onEnd: () => {
        if (!onBytes) partsDone += entry.compressedSize;
      },
    });
    reading.add(meter);
    meter.once('close', () => reading.delete(meter));
    pipeline(zip.inflate(entry), meter, () => {});
    return meter;
  };

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(filePath, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell which numbers are dates.
    styles: 'cache',
    // A hyperlink cell then reads as its text.
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookReaderInternals & { properties?: { model?: { date1904?: boolean } } };

  let rows: AsyncIterable<ExcelJS.Row>;
  try {
    await reader._parseRels(inflated('xl/_rels/workbook.xml.rels', INFLATED_LIMITS.part));
    await reader._parseWorkbook(inflated('xl/workbook.xml', INFLATED_LIMITS.part));
    const relationships = reader.workbookRels ?? [];
    const related = (type: string) => relationships.find((rel) => rel.Type.endsWith(`/${type}`));

    // The first worksheet in the workbook's order (not the zip's), skipping hidden ones and chart sheets.
    const worksheets = (reader.model?.sheets ?? []).flatMap((sheet) => {
      const rel = relationships.find((r) => r.Id === sheet.rId);
      return rel?.Type.endsWith('/worksheet') ? [{ ...sheet, part: partPath(rel.Target) }] : [];
    });
    const sheet = worksheets.find((s) => s.state !== 'hidden' && s.state !== 'veryHidden') ?? worksheets[0];
    if (!sheet) throw damaged('it holds no worksheet');

    const sharedStrings = related('sharedStrings');
    if (sharedStrings) {
      const table = await readSharedStrings(
        inflated(partPath(sharedStrings.Target), INFLATED_LIMITS.sharedStrings),
      );
      reader.sharedStrings = table.indexable();
    }
    const styles = related('styles');
    if (styles) await reader._parseStyles(inflated(partPath(styles.Target), INFLATED_LIMITS.part));

    const sheetNo = /sheet(\d+)\.xml$/.exec(sheet.part)?.[1] ?? '1';
    const sheetEntry = zip.entries.get(sheet.part);
    sheetSize = { compressed: sheetEntry?.compressedSize ?? 0, inflated: sheetEntry?.uncompressedSize ?? 0 };
    const sheetStream = inflated(sheet.part, INFLATED_LIMITS.worksheet, (bytes) => {
      sheetRead = bytes;
    });
    const emitted = reader._parseWorksheet(sheetStream, sheetNo).next();
    if (emitted.done) throw damaged('its worksheet cannot be read');
    rows = emitted.value.value;
  } catch (error) {
    await close();
    if (signal?.aborted) throw abortReason(signal);
    if (error instanceof SheetError) throw error;
    throw damaged('its structure is broken', error);
  }

  const date1904 = reader.properties?.model?.date1904 === true;
  async function* records(): AsyncGenerator<RawRecord> {
    let previous = 0;
    try {
      for await (const row of rows) {
        const cells: string[] = [];
        row.eachCell((cell, column) => {
          // A cell far to the right would make this row an array of millions of empty cells.
          if (column > SHEET_LIMITS.maxColumns) {
            throw new SheetError(
              `Row ${row.number} has a cell in column ${columnLetters(column - 1)}; at most ` +
                `${SHEET_LIMITS.maxColumns} columns are accepted. Remove the columns you do not import.`,
              'TOO_MANY_COLUMNS',
            );
          }
          cells[column - 1] = cellText(cell, date1904);
        });
        for (let i = 0; i < cells.length; i++) cells[i] ??= '';
        // A row without its number (allowed, if rare) follows the one before.
        const line = Number.isFinite(row.number) && row.number > previous ? row.number : previous + 1;
        previous = line;
        yield { line, cells };
      }
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof SheetError) throw error;
      throw damaged('its worksheet is broken', error);
    }
  }

  return {
    records: records(),
    bytesRead() {
      if (sheetSize.compressed === 0) return 0; // still reading the parts before the worksheet
      const share = sheetSize.inflated > 0 ? Math.min(1, sheetRead / sheetSize.inflated) : 0;
      const done = partsDone + sheetSize.compressed * share;
      const whole = partsDone + sheetSize.compressed;
      return Math.floor((zip.totalBytes * done) / whole);
    },
    totalBytes: zip.totalBytes,
    close,
  };
}
