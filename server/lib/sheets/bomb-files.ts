// Hostile XLSX files for the tests (issue 26): a few MB on disk, hundreds of MB to GBs inflated. A
// part's long run of the same text is deflated once: after a sync flush the deflater's output for the
// same 1 MB chunk is the same bytes every time (its window holds only that text), so those bytes are
// repeated to make the part as long as wanted, in no time.
import { writeFile } from 'node:fs/promises';
import zlib from 'node:zlib';

const MB = 1024 * 1024;

/** Raw deflate of `head`, then `unit` repeated to `megabytes` MB, then `tail`. */
async function deflatedRun(head: string, unit: string, megabytes: number, tail: string) {
  const chunk = Buffer.from(unit.repeat(Math.floor(MB / unit.length)));
  const deflater = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (bytes: Buffer) => out.push(bytes));
  const flushed = () => {
    const bytes = Buffer.concat(out.splice(0));
    return new Promise<Buffer>((resolve) =>
      deflater.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat([bytes, ...out.splice(0)]))),
    );
  };
  deflater.write(head);
  const start = await flushed();
  deflater.write(chunk);
  const first = await flushed();
  deflater.write(chunk);
  const repeated = await flushed();
  deflater.write(chunk);
  if (!(await flushed()).equals(repeated)) throw new Error(`the deflated run of ${unit} does not repeat`);
  deflater.end(tail);
  await new Promise((resolve) => deflater.once('end', resolve));
  const end = Buffer.concat(out);
  const data = Buffer.concat([start, first, ...Array(megabytes - 1).fill(repeated), repeated, end]);
  const size = Buffer.byteLength(head) + (megabytes + 1) * chunk.length + Buffer.byteLength(tail);
  return { data, size };
}

interface Entry {
  name: string;
  data: Buffer;
  /** Inflated size; 0 with method 0 (stored). */
  size: number;
  method: 0 | 8;
}

/** A zip of the entries (CRC left 0: no reader here checks it, and a bomb would not care). */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const size = entry.method === 0 ? entry.data.length : entry.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const stored = (name: string, text: string): Entry => ({
  name,
  data: Buffer.from(text),
  size: 0,
  method: 0,
});

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A one-sheet workbook around the given worksheet and shared strings parts. */
function workbook(sheet: Entry, sharedStrings?: Entry): Buffer {
  const rels = [
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`,
    sharedStrings ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '',
  ].join('');
  return zip([
    stored('[Content_Types].xml', '<?xml version="1.0"?><Types/>'),
    stored(
      'xl/workbook.xml',
      `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    stored(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    ),
    sheet,
    ...(sharedStrings ? [sharedStrings] : []),
  ]);
}

const sheetStart = `<?xml version="1.0"?><worksheet xmlns="${NS}"><sheetData>`;
const sheetEnd = '</sheetData></worksheet>';

async function deflatedEntry(name: string, head: string, unit: string, megabytes: number, tail: string) {
  const { data, size } = await deflatedRun(head, unit, megabytes, tail);
  return { name, data, size, method: 8 as const };
}

/** Each bomb of the family, as the file's bytes. */
export async function bombFiles(): Promise<Record<string, Buffer>> {
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Email</t></is></c></row>';
  return {
    // One shared string of 500 MB, used by the header's first cell.
    'huge shared string': workbook(
      stored(
        'xl/worksheets/sheet1.xml',
        `${sheetStart}<row r="1"><c r="A1" t="s"><v>0</v></c></row>${sheetEnd}`,
      ),
      await deflatedEntry('xl/sharedStrings.xml', `<sst xmlns="${NS}"><si><t>`, 'a', 500, '</t></si></sst>'),
    ),
    // One inline string of 500 MB in the header row.
    'huge inline string': workbook(
      await deflatedEntry(
        'xl/worksheets/sheet1.xml',
        `${sheetStart}<row r="1"><c r="A1" t="inlineStr"><is><t>`,
        'a',
        500,
        `</t></is></c></row>${sheetEnd}`,
      ),
    ),
    // 50 million empty rows before the header.
    'many rows': workbook(
      await deflatedEntry('xl/worksheets/sheet1.xml', sheetStart, '<row></row>', 500, `${header}${sheetEnd}`),
    ),
    // One header row of 20 million cells.
    'many columns': workbook(
      await deflatedEntry(
        'xl/worksheets/sheet1.xml',
        `${sheetStart}<row r="1">`,
        '<c t="inlineStr"><is><t>ab</t></is></c>',
        500,
        `</row>${sheetEnd}`,
      ),
    ),
    // Elements nested 100 million deep.
    'deep XML': workbook(await deflatedEntry('xl/worksheets/sheet1.xml', sheetStart, '<a>', 300, sheetEnd)),
    // A worksheet that inflates to 3 GB (3,000 MB of empty elements, then the header).
    'zip of 3 GB inflated': workbook(
      await deflatedEntry('xl/worksheets/sheet1.xml', sheetStart, '<x/>', 3000, `${header}${sheetEnd}`),
    ),
  };
}

/** Writes a file and answers its path (for tests that want the bombs on disk). */
export async function writeBomb(filePath: string, bytes: Buffer) {
  await writeFile(filePath, bytes);
  return filePath;
}
