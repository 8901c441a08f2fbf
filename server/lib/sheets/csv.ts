// CSV records, streamed: the bytes are checked as UTF-8 (or decoded from UTF-16 after its BOM) on their
// way to csv-parse, which never sees more than a chunk at a time. Cells are the raw text: csv-parse
// casts nothing, and a formula-looking cell stays text.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { HEAD_BYTES, readHead, UTF16BE_BOM, UTF16LE_BOM } from './detect';
import { SHEET_LIMITS, SheetError } from './errors';
import { abortReason, type RecordSource } from './source';

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';
export type Delimiter = ',' | ';' | '\t';

function encodingOf(head: Uint8Array): Encoding {
  if (head[0] === UTF16LE_BOM[0] && head[1] === UTF16LE_BOM[1]) return 'utf-16le';
  if (head[0] === UTF16BE_BOM[0] && head[1] === UTF16BE_BOM[1]) return 'utf-16be';
  return 'utf-8';
}

/**
 * The delimiter of the header line (the first line that is not blank): the most frequent of comma,
 * semicolon and tab outside quotes; comma when there is none (one column) or on a tie.
 */
export function detectDelimiter(text: string): Delimiter {
  const candidates: Delimiter[] = [',', ';', '\t'];
  const counts = new Map<string, number>(candidates.map((c) => [c, 0]));
  let quoted = false;
  let content = false;
  for (const char of text) {
    if (char === '"') {
      quoted = !quoted;
      content = true;
    } else if (quoted) {
      // inside quotes nothing counts, line breaks included
    } else if (char === '\n' || char === '\r') {
      if (content) break;
      for (const c of candidates) counts.set(c, 0); // a blank line (perhaps just delimiters) is no header
    } else if (counts.has(char)) {
      counts.set(char, (counts.get(char) ?? 0) + 1);
    } else if (char.trim() !== '') {
      content = true;
    }
  }
  let best: Delimiter = ',';
  for (const c of candidates) if ((counts.get(c) ?? 0) > (counts.get(best) ?? 0)) best = c;
  return best;
}

const badEncoding = (line: number, cause?: unknown) =>
  new SheetError(
    `The file is not UTF-8 text (the first character that cannot be read is on line ${line}). ` +
      'In Excel choose File › Save As › "CSV UTF-8 (Comma delimited)", or export as UTF-8 from your app, and upload that file.',
    'BAD_ENCODING',
    { cause },
  );

/**
 * Lets the bytes through when they are valid UTF-8 (checked as they stream, a character split between
 * chunks included), or decodes UTF-16 to text; anything unreadable → SheetError BAD_ENCODING.
 */
function textChecker(encoding: Encoding, onBytes: (count: number) => void): Transform {
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: encoding === 'utf-8' });
  let lines = 1;
  const lineOfFailure = (chunk: Buffer | undefined) => {
    if (!chunk) return lines;
    // Decoded leniently, the chunk shows where the first unreadable character stands.
    const text = new TextDecoder(encoding).decode(chunk);
    const bad = text.indexOf('\uFFFD');
    return lines + (text.slice(0, bad < 0 ? text.length : bad).match(/\n/g)?.length ?? 0);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch (error) {
        done(badEncoding(lineOfFailure(chunk), error));
        return;
      }
      if (encoding === 'utf-8') {
        // Counting lines only for the message costs one native scan per chunk.
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        done(null, chunk);
      } else {
        done(null, text);
      }
    },
    flush(done) {
      try {
        const rest = decoder.decode();
        done(null, encoding === 'utf-8' || rest === '' ? undefined : rest);
      } catch (error) {
        done(badEncoding(lines, error)); // the file ends inside a character
      }
    },
  });
}

/** What csv-parse's error means for the user, naming the row it stopped at. */
function malformed(error: CsvError, delimiter: Delimiter): SheetError {
  const context = error as CsvError & { records?: number; lines?: number };
  const row = typeof context.records === 'number' ? context.records + 1 : context.lines;
  const at = row === undefined ? '' : ` at row ${row}`;
  const delimiterName = { ',': 'comma', ';': 'semicolon', '\t': 'tab' }[delimiter];
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new SheetError(
        `The CSV file has a quoted cell that is never closed${at}: a cell that starts with " must end with ".`,
        'MALFORMED',
        { cause: error },
      );
    case 'CSV_MAX_RECORD_SIZE':
      return new SheetError(
        `The CSV file has a row that is far too long${at}: perhaps a quote that is never closed.`,
        'MALFORMED',
        { cause: error },
      );
    case 'INVALID_OPENING_QUOTE':
      return new SheetError(
        `The CSV file has a quote inside a cell that does not start with one${at}. ` +
          'Put the whole cell in quotes and double the quote inside it: "15"" screen".',
        'MALFORMED',
        { cause: error },
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return new SheetError(
        `The CSV file has a quoted cell followed by more text before the next ${delimiterName}${at}. ` +
          'Inside a quoted cell a quote must be doubled ("").',
        'MALFORMED',
        { cause: error },
      );
    default:
      return new SheetError(
        `The CSV file cannot be read${at}: its quoting or layout is broken.`,
        'MALFORMED',
        {
          cause: error,
        },
      );
  }
}

export async function openCsvSource(filePath: string, signal?: AbortSignal): Promise<RecordSource> {
  const head = await readHead(filePath, HEAD_BYTES);
  const encoding = encodingOf(head);
  const delimiter = detectDelimiter(new TextDecoder(encoding).decode(head));
  const { size } = await stat(filePath);

  let bytes = 0;
  const file = createReadStream(filePath, { highWaterMark: 256 * 1024 });
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    // Strict quoting (RFC 4180, as every spreadsheet app writes it): a stray quote is an error naming
    // its row, rather than a guess that would keep quote marks in the data.
    relax_quotes: false,
    // Blank lines come through as records, so that every record's number is the row the user sees.
    skip_empty_lines: false,
    // Bounds the memory one record may take (a quote never closed would otherwise swallow the file).
    max_record_size: SHEET_LIMITS.maxColumns * SHEET_LIMITS.maxCellChars + 1024,
  });
  const onAbort = () => file.destroy(abortReason(signal as AbortSignal) as Error);
  signal?.addEventListener('abort', onAbort, { once: true });
  pipeline(
    file,
    textChecker(encoding, (count) => {
      bytes += count;
    }),
    parser,
    () => {}, // failures reach the reader through the parser
  );

  async function* records() {
    let line = 0;
    try {
      for await (const cells of parser as AsyncIterable<string[]>) {
        line++;
        yield { line, cells };
      }
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof CsvError) throw malformed(error, delimiter);
      throw error;
    }
  }

  return {
    records: records(),
    bytesRead: () => bytes,
    totalBytes: size,
    async close() {
      signal?.removeEventListener('abort', onAbort);
      file.destroy();
      parser.destroy();
    },
  };
}
