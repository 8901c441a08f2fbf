// The demo's catalog imports (issue 15): a finished import whose rows were moved to staging (Peacock
// Apparel), a failed one (Ganga Handloom's sheet is not UTF-8 half-way down), a pending one waiting for
// its move (the demo seller's sample sheet, with good rows, errors and duplicates), and one open import
// request from the demo seller. The sheets are real files under DATA_DIR, validated and moved by the
// import jobs' own handlers, so their reports are exactly what an upload would produce.
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { catalogImports, importRequests, sellers, users } from '../db/schema';
import type { JobContext } from '../jobs/worker';
import { recordAudit } from '../lib/audit';
import type { FileStorage } from '../lib/storage/types';
import { allAttributes } from '../modules/attributes/attribute-defs';
import { csvLine } from '../modules/exports/csv';
import { IMPORT_FOLDER, insertBatch } from '../modules/imports/imports';
import { guessMapping } from '../modules/imports/mapping';
import { moveHandler } from '../modules/imports/move-job';
import { sampleSheetCsv } from '../modules/imports/sample-sheet';
import { validateHandler } from '../modules/imports/validate-job';
import { displayName } from '../modules/users/current-user';

const COLOURS = ['Blue', 'White', 'Black', 'Maroon', 'Navy', 'Green'];
const SIZES = ['S', 'M', 'L', 'XL'];
const STYLES = ['Classic Tee', 'Linen Shirt', 'Chino Trousers', 'Polo', 'Kurta'];

function peacockSheet(): Buffer {
  const rows: string[][] = [
    ['SKU', 'Title', 'Category', 'Price', 'Currency', 'Stock', 'Brand', 'Colour', 'Size', 'Material'],
  ];
  for (let index = 0; index < 24; index++) {
    const style = STYLES[index % STYLES.length] as string;
    const colour = COLOURS[index % COLOURS.length] as string;
    const size = SIZES[index % SIZES.length] as string;
    rows.push([
      `PCK-SS26-${String(index + 1).padStart(3, '0')}`,
      `Peacock ${style} ${colour} ${size}`,
      index % 3 ? 'Apparel > Men' : 'Apparel > Women',
      `${699 + (index % 6) * 100}.00`,
      'INR',
      String(5 + ((index * 7) % 40)),
      'Peacock',
      colour,
      size,
      index % 2 ? 'Cotton' : 'Linen',
    ]);
  }
  rows.push([
    'PCK-SS26-025',
    'Peacock Festive Kurta',
    'Apparel > Ethnic Wear',
    'TBD',
    'INR',
    '4',
    'Peacock',
    'Gold',
    'M',
    'Silk',
  ]);
  rows.push([
    'PCK-SS26-026',
    'Peacock Polo Lilac M',
    'Apparel > Men',
    '899',
    'INR',
    '6',
    'Peacock',
    'Lilac',
    'M',
    'Cotton',
  ]);
  return Buffer.from(`\uFEFF${rows.map(csvLine).join('')}`);
}

/** Valid UTF-8 for 30 rows, then a row saved in Latin-1: validation fails there, with the reason. */
function gangaSheet(): Buffer {
  const rows: string[][] = [['SKU', 'Title', 'Category', 'Price', 'Stock', 'Colour', 'Material']];
  for (let index = 0; index < 30; index++) {
    rows.push([
      `GNG-${100 + index}`,
      `Ganga Handloom Saree ${index + 1}`,
      'Handicrafts > Handloom',
      '2499',
      '3',
      'Maroon',
      'Silk',
    ]);
  }
  return Buffer.concat([
    Buffer.from(rows.map(csvLine).join('')),
    Buffer.from('GNG-200,Ganga Handloom Étole brodée,Handicrafts > Handloom,1299,2,Beige,Silk\r\n', 'latin1'),
  ]);
}

async function sellerByName(db: Db, name: string) {
  const [row] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.sellerName, name));
  return row?.id ?? null;
}

/** A demo account as the history names it. */
async function actorByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.email, email));
  return { id: row?.id ?? null, name: row ? displayName(row.firstName, row.lastName, row.email) : email };
}

/** A context for running a job handler here, outside the queue: one attempt, never aborted. */
function inlineContext(payload: Record<string, unknown>): JobContext {
  return {
    job: { id: randomUUID(), attempts: 1, maxAttempts: 1 } as JobContext['job'],
    payload,
    setProgress: async () => undefined,
    signal: new AbortController().signal,
  };
}

async function storeImport(
  db: Db,
  storage: FileStorage,
  input: { sellerId: string; fileName: string; content: Buffer; actor: { id: string | null; name: string } },
) {
  const relativePath = path.posix.join(IMPORT_FOLDER, `${randomUUID()}.csv`);
  await storage.put(relativePath, input.content, { contentType: 'text/csv' });
  const firstLine =
    input.content
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? '';
  const headers = firstLine.split(',');
  const mapping = guessMapping(headers, await allAttributes(db));
  return db.transaction(async (tx) => {
    const [upload] = await tx
      .insert(catalogImports)
      .values({
        sellerId: input.sellerId,
        fileName: input.fileName,
        format: 'csv',
        fileSize: input.content.length,
        fileHash: createHash('sha256').update(input.content).digest('hex'),
        storagePath: relativePath,
        headers,
        createdBy: input.actor.id,
        createdByName: input.actor.name,
      })
      .returning();
    if (!upload) throw new Error('the demo import was not stored');
    const batch = await insertBatch(tx, {
      importId: upload.id,
      mapping,
      blankPolicy: 'keep',
      actor: input.actor,
    });
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor: input.actor,
      action: 'uploaded',
      note: `${input.fileName} (${headers.length} columns)`,
    });
    return batch;
  });
}

export async function seedDemoImports(db: Db, options: { storage: FileStorage; demoSellerId: string }) {
  const validate = validateHandler({ db, storage: options.storage });
  const move = moveHandler({ db });
  const staff = await actorByEmail(db, 'staff@demo.local');

  const peacock = await sellerByName(db, 'Peacock Apparel');
  if (peacock) {
    const batch = await storeImport(db, options.storage, {
      sellerId: peacock,
      fileName: 'peacock-summer-2026.csv',
      content: peacockSheet(),
      actor: staff,
    });
    await validate(inlineContext({ batchId: batch.id }));
    await move(inlineContext({ batchId: batch.id, kind: 'full', actor: staff }));
  }

  const ganga = await sellerByName(db, 'Ganga Handloom');
  if (ganga) {
    const batch = await storeImport(db, options.storage, {
      sellerId: ganga,
      fileName: 'ganga-handloom-stock.csv',
      content: gangaSheet(),
      actor: staff,
    });
    await validate(inlineContext({ batchId: batch.id })).catch(() => undefined); // fails, as it should
  }

  const sellerActor = await actorByEmail(db, 'seller@demo.local');
  const pending = await storeImport(db, options.storage, {
    sellerId: options.demoSellerId,
    fileName: 'sample-catalog-sheet.csv',
    content: Buffer.from(sampleSheetCsv()),
    actor: sellerActor,
  });
  await validate(inlineContext({ batchId: pending.id }));

  const [request] = await db
    .insert(importRequests)
    .values({
      sellerId: options.demoSellerId,
      kind: 'feed',
      feedUrl: 'https://feeds.example.com/demo-seller-store/products.csv',
      note: 'Our product feed is refreshed every night. Please import the kitchen range first.',
      createdBy: sellerActor.id,
      createdByName: sellerActor.name,
    })
    .returning({ id: importRequests.id });
  if (request) {
    await recordAudit(db, {
      subject: { type: 'import_request', id: request.id },
      actor: sellerActor,
      action: 'requested',
      note: 'Feed https://feeds.example.com/demo-seller-store/products.csv',
    });
  }
}
