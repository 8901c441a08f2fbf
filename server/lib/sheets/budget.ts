// The streaming budgets of an XLSX file, checked on its inflated bytes as they arrive, before any XML
// parser sees them, so that a decompression bomb is refused before it builds an oversized string or
// an unbounded tag stack (issue 26): a 0.5 MB workbook can hold one shared string that inflates to
// 500 MB, which the sax parser would otherwise build whole before anything could look at its length.
import { Transform } from 'node:stream';
import { formatNumber } from '../../../contracts/domain/format';
import { SHEET_LIMITS, SheetError } from './errors';

const MB = 1024 * 1024;

export const XLSX_BUDGETS = {
  /** Every part of the file, inflated, together. A 200,000-row sheet of 30 columns is ~200 MB. */
  totalInflatedBytes: 1024 * MB,
  /**
   * Past `ratioFreeBytes`, what is inflated may be at most `ratio` times the compressed bytes read so
   * far (workbooks inflate 5–30×; a bomb ~1,000×). Checked as it goes, so a bomb stops within its first ~5 MB.
   */
  ratio: 100,
  ratioFreeBytes: 4 * MB,
  /**
   * The longest run of text between two tags, and the longest tag, in bytes. A cell's text (≤ 32,767
   * characters) is one run; escaped as `&#x10FFFF;` a character takes 10 bytes at most. So no string
   * the parser builds can be more than ~10× the cell limit; the exact limit is checked on the text.
   */
  maxTextBytes: SHEET_LIMITS.maxCellChars * 10 + 1024,
  maxTagBytes: 64 * 1024,
  /** How deeply elements may nest: a worksheet needs ~6 levels (worksheet › sheetData › row › c › is › r › t). */
  maxDepth: 64,
};

export const tooLarge = (what: string) =>
  new SheetError(
    `The XLSX file is refused: ${what}. This is not a sheet a spreadsheet app writes; save it again as .xlsx, or split it, and upload that.`,
    'TOO_LARGE',
  );

/** The inflated bytes of every part of one file, against its total budget and the compression ratio. */
export class InflatedBudget {
  private used = 0;
  constructor(
    /** The file's compressed bytes read so far. */
    private readonly compressedRead: () => number,
    private readonly limits = XLSX_BUDGETS,
  ) {}

  spend(bytes: number) {
    const { totalInflatedBytes, ratio, ratioFreeBytes } = this.limits;
    this.used += bytes;
    if (this.used > totalInflatedBytes) {
      throw tooLarge(`its content inflates to more than ${formatNumber(totalInflatedBytes / MB)} MB`);
    }
    if (this.used > ratioFreeBytes && this.used > ratio * this.compressedRead()) {
      throw tooLarge(`it inflates to more than ${ratio} times its size (a decompression bomb)`);
    }
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

enum State {
  Text,
  TagStart,
  Tag,
  /** <!-- comments -->, <![CDATA[…]]>, <?processing instructions?>: no quotes, no nesting. */
  Special,
}

/**
 * A lexical watch on XML bytes: the length of each text run and of each tag, and the nesting depth.
 * It does not parse (entities, CDATA and comments are only roughly followed): it bounds what a parser
 * reading the same bytes can build, and lets every byte through unchanged.
 */
export class XmlShapeGuard {
  private state = State.Text;
  private run = 0;
  private depth = 0;
  private closing = false;
  private quote = 0;
  private previous = 0;

  constructor(
    private readonly part: string,
    private readonly limits = XLSX_BUDGETS,
  ) {}

  /** Throws a SheetError TOO_LARGE when the bytes break a limit. */
  check(chunk: Uint8Array) {
    const { maxTextBytes, maxTagBytes, maxDepth } = this.limits;
    const length = chunk.length;
    let i = 0;
    while (i < length) {
      if (this.state === State.Text) {
        const lt = chunk.indexOf(LT, i);
        const end = lt === -1 ? length : lt;
        this.run += end - i;
        if (this.run > maxTextBytes) {
          throw tooLarge(
            `its part ${this.part} holds a text of more than ${formatNumber(SHEET_LIMITS.maxCellChars)} characters ` +
              `(a cell may hold at most ${formatNumber(SHEET_LIMITS.maxCellChars)})`,
          );
        }
        if (lt === -1) return;
        this.state = State.TagStart;
        this.run = 0;
        i = lt + 1;
        continue;
      }
      const byte = chunk[i] as number;
      i++;
      if (this.state === State.TagStart) {
        this.run = 1;
        this.previous = byte;
        if (byte === BANG || byte === QUESTION) {
          this.state = State.Special;
          continue;
        }
        this.state = State.Tag;
        this.closing = byte === SLASH;
        if (!this.closing && ++this.depth > maxDepth) {
          throw tooLarge(`its part ${this.part} nests elements more than ${maxDepth} deep`);
        }
        continue;
      }
      if (++this.run > maxTagBytes) {
        throw tooLarge(`its part ${this.part} has a tag longer than ${formatNumber(maxTagBytes / 1024)} KB`);
      }
      if (this.quote) {
        if (byte === this.quote) this.quote = 0;
      } else if (this.state === State.Tag && (byte === QUOTE || byte === APOSTROPHE)) {
        this.quote = byte;
      } else if (byte === GT) {
        if (this.state === State.Tag && (this.closing || this.previous === SLASH)) this.depth--;
        this.state = State.Text;
        this.run = 0;
      }
      this.previous = byte;
    }
  }
}

/**
 * The inflated bytes of one zip entry on their way to a parser: counted against the part's own limit
 * and the file's budget (total and compression ratio), and watched by an XmlShapeGuard. Fails the stream (with
 * a SheetError) on the first chunk that breaks one.
 */
export function budgetedPart(options: {
  part: string;
  partLimit: number;
  budget: InflatedBudget;
  onBytes?: (bytes: number) => void;
  onEnd?: () => void;
}): Transform {
  const { part, partLimit, budget } = options;
  const guard = new XmlShapeGuard(part);
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      options.onBytes?.(bytes);
      try {
        if (bytes > partLimit) throw tooLarge(`its part ${part} inflates to more than ${partLimit / MB} MB`);
        budget.spend(chunk.length);
        guard.check(chunk);
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, chunk);
    },
    flush(done) {
      options.onEnd?.();
      done();
    },
  });
}
