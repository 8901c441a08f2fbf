// Which kind of sheet a file is, from its content only: the name and the declared type are the
// client's to choose, so they decide nothing.
import { open } from 'node:fs/promises';
import { sniffFileType } from '../uploads';
import { SheetError, type SheetFormat } from './errors';
import { openZip } from './zip';

/** Enough of the start to tell text from binary and to find a CSV's header line. */
export const HEAD_BYTES = 64 * 1024;

const SAVE_AS = 'Save it from your spreadsheet app as .xlsx or as "CSV UTF-8" and upload that.';
const notASheet = (what: string) =>
  new SheetError(`The file is not a CSV or XLSX sheet: ${what}. ${SAVE_AS}`, 'NOT_A_SHEET');

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);

const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4, a zip's first local file header
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // .xls, .doc, and encrypted .xlsx
export const UTF8_BOM = [0xef, 0xbb, 0xbf];
export const UTF16LE_BOM = [0xff, 0xfe];
export const UTF16BE_BOM = [0xfe, 0xff];

const sniffedNames: Record<string, string> = {
  'application/pdf': 'it is a PDF document',
  'image/jpeg': 'it is a JPEG picture',
  'image/png': 'it is a PNG picture',
  'image/webp': 'it is a WebP picture',
  'video/mp4': 'it is an MP4 video',
  'video/webm': 'it is a WebM video',
};

/** The first `length` bytes of the file (fewer when it is shorter). */
export async function readHead(filePath: string, length = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the bytes look like text: no NUL, and control characters (other than tab and line ends) rare. */
function looksLikeText(text: string): boolean {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return false;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) || code === 0x7f)
      controls++;
  }
  return controls <= text.length / 100;
}

/**
 * The format from the file's CONTENT (never its name): xlsx is a zip holding xl/workbook.xml; csv is
 * text (UTF-8, or UTF-16 with its BOM; other single-byte text passes here and is refused, with a
 * message about the encoding, when read). Anything else → SheetError NOT_A_SHEET; 0 bytes → EMPTY_FILE.
 */
export async function detectSheetFormat(filePath: string): Promise<SheetFormat> {
  const head = await readHead(filePath);
  if (head.length === 0) throw new SheetError('The file is empty.', 'EMPTY_FILE');

  if (startsWith(head, ZIP) || startsWith(head, EMPTY_ZIP)) {
    let entries: Set<string>;
    try {
      const zip = await openZip(filePath);
      entries = new Set(zip.entries.keys());
      zip.close();
    } catch (error) {
      throw new SheetError(
        `The file is not a CSV or XLSX sheet: it looks like a damaged ZIP archive. ${SAVE_AS}`,
        'NOT_A_SHEET',
        { cause: error },
      );
    }
    if (entries.has('xl/workbook.xml')) return 'xlsx';
    if (entries.has('xl/workbook.bin')) throw notASheet('it is an Excel binary workbook (.xlsb)');
    if (entries.has('content.xml')) throw notASheet('it is an OpenDocument file (.ods)');
    throw notASheet('it is a ZIP archive that holds no Excel workbook');
  }
  if (startsWith(head, OLE2)) {
    throw notASheet('it is an old Excel 97–2003 workbook (.xls) or a password-protected file');
  }
  const sniffed = sniffFileType(head);
  if (sniffed) throw notASheet(sniffedNames[sniffed] ?? 'it is a binary file');

  let text: string;
  if (startsWith(head, UTF16LE_BOM)) text = new TextDecoder('utf-16le').decode(head);
  else if (startsWith(head, UTF16BE_BOM)) text = new TextDecoder('utf-16be').decode(head);
  // Latin-1 keeps one character per byte, so any single-byte text (and UTF-8) is judged alike here.
  else text = head.toString('latin1');
  if (!looksLikeText(text)) throw notASheet('it is a binary file');

  // Some systems export an HTML table or an Excel 2003 XML file under the name .xls or .csv.
  const start = text
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trimStart()
    .slice(0, 200)
    .toLowerCase();
  if (/^<(\?xml|!doctype|html|table)\b/.test(start)) {
    throw notASheet('it is an HTML or XML document (some systems export one under a spreadsheet name)');
  }
  return 'csv';
}
