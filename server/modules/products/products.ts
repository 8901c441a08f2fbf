// Staging products: create, read, edit and move through the lifecycle. Every write checks its values
// against the category's attribute set, keeps the search keys, index and completeness in step, bumps
// the version (a stale editor gets 409 naming who changed it) and records the change in the history,
// all in one transaction.
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  type AttributeValueInput,
  type CreateProductBody,
  type Dimensions,
  type Product,
  type ProductStatus,
  productStatusLabels,
  type TransitionActor,
  transitionsFrom,
  type UpdateProductBody,
} from '../../../contracts/catalog';
import { volumetricWeight } from '../../../contracts/domain/volumetric-weight';
import type { Db, Tx } from '../../db/client';
import { categories, type FieldChange, productMedia, products, sellers } from '../../db/schema';
import { diffFields, latestAuditEntry, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { categoryAttributeSet } from '../attributes/attribute-defs';
import {
  type AttributeDef,
  attributeIndexOf,
  checkAttributeValues,
  completenessOf,
  type MediaRef,
} from '../attributes/attribute-values';
import { mediaPath, mediaSigner } from '../media/media-urls';
import { countStock } from '../stock/stock';
import { actorOf } from '../users/actor';
import { realChanges } from './product-history';
import { productKeys } from './product-keys';
import { draftTagsOrThrow, holdTagTree, readProductTags, sameTags, tagLabels } from './product-tags';

export interface Viewer {
  userId: string;
  /** Set for sellers: they see and edit only their own products. */
  sellerId: string | null;
}

export const viewerOf = (request: FastifyRequest): Viewer => ({
  userId: request.user.id,
  // A seller account without a seller (never made by the product) sees nothing rather than everything.
  sellerId: request.user.role === 'Seller' ? (request.user.sellerId ?? NO_SELLER) : null,
});

const NO_SELLER = '00000000-0000-0000-0000-000000000000';

const notFound = () =>
  new HttpError(404, 'There is no such product, or it is not yours.', 'PRODUCT_NOT_FOUND');

type ProductRow = typeof products.$inferSelect;

/** The product, if the viewer may see it (a seller: their own only; 404 otherwise, never 403). */
export async function findProduct(
  db: Db | Tx,
  viewer: Viewer,
  id: string,
  lock = false,
): Promise<ProductRow> {
  const query = db
    .select()
    .from(products)
    .where(and(eq(products.id, id), viewer.sellerId ? eq(products.sellerId, viewer.sellerId) : undefined));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound();
  return row;
}

/** The seller's uploads a product may use: its own, or not yet attached to any product. */
async function usableMedia(db: Db | Tx, sellerId: string, productId: string | null, ids: string[]) {
  if (ids.length === 0) return new Map<string, MediaRef & { kind: 'image' | 'video' }>();
  const rows = await db
    .select({ id: productMedia.id, kind: productMedia.kind })
    .from(productMedia)
    .where(
      and(
        inArray(productMedia.id, [...new Set(ids)]),
        eq(productMedia.sellerId, sellerId),
        productId
          ? or(isNull(productMedia.productId), eq(productMedia.productId, productId))
          : isNull(productMedia.productId),
      ),
    );
  return new Map(rows.map((row) => [row.id, { id: row.id, kind: row.kind, url: mediaPath(row.id) }]));
}

const mediaIdsOf = (inputs: readonly AttributeValueInput[]) =>
  inputs
    .flatMap((input) => ('values' in input ? input.values : [input]))
    .map((item) => item.valueId)
    .filter((id): id is string => typeof id === 'string');

/** Values checked against the set; every problem becomes a field error (`attributeValues.<id>`). */
function checkedValues(
  inputs: readonly AttributeValueInput[],
  defs: ReadonlyMap<number, AttributeDef>,
  media: ReadonlyMap<string, MediaRef>,
) {
  const { values, problems } = checkAttributeValues(inputs, defs, media);
  if (problems.length) {
    throw new HttpError(
      400,
      problems[0]?.message ?? 'Some attribute values are not valid.',
      'INVALID_ATTRIBUTE_VALUE',
      Object.fromEntries(problems.map((problem) => [`attributeValues.${problem.keyId}`, problem.message])),
    );
  }
  const { completeness, missingAttributes } = completenessOf(values, defs);
  return {
    attributeValues: values,
    attrIndex: attributeIndexOf(values, defs),
    completeness,
    missingAttributes,
  };
}

async function assertCategory(db: Db | Tx, categoryId: string) {
  const [category] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.id, categoryId));
  if (!category)
    throw new HttpError(400, 'Choose a category that exists.', 'INVALID_CATEGORY', {
      categoryId: 'Choose a category that exists.',
    });
}

const duplicateSku = (sku: string) =>
  new HttpError(409, `You already have a product with SKU ${sku}.`, 'DUPLICATE_SKU', {
    sku: `You already have a product with SKU ${sku}.`,
  });

/** Gallery images: attached in the given order (the first is the main image); others detached. */
async function attachImages(tx: Tx, productId: string, sellerId: string, imageIds: string[]) {
  const usable = await usableMedia(tx, sellerId, productId, imageIds);
  const unknown = imageIds.find((id) => usable.get(id)?.kind !== 'image');
  if (unknown) {
    throw new HttpError(400, 'An image is not one of your uploads.', 'INVALID_IMAGE', {
      imageIds: 'An image is not one of your uploads.',
    });
  }
  await tx
    .update(productMedia)
    .set({ position: null, productId: null })
    .where(
      and(
        eq(productMedia.productId, productId),
        eq(productMedia.kind, 'image'),
        sql`${productMedia.position} IS NOT NULL`,
      ),
    );
  for (const [position, id] of imageIds.entries()) {
    await tx.update(productMedia).set({ productId, position }).where(eq(productMedia.id, id));
  }
  return { imageCount: imageIds.length, mainImageId: imageIds[0] ?? null };
}

/** Media used by attribute values belongs to the product from now on. */
async function claimAttributeMedia(tx: Tx, productId: string, ids: string[]) {
  if (ids.length) await tx.update(productMedia).set({ productId }).where(inArray(productMedia.id, ids));
}

export async function createProduct(
  db: Db,
  request: FastifyRequest,
  body: CreateProductBody & { sellerId?: string },
) {
  const viewer = viewerOf(request);
  const sellerId = viewer.sellerId ?? body.sellerId;
  if (!sellerId) {
    throw new HttpError(400, 'Choose the seller this product belongs to.', 'SELLER_REQUIRED', {
      sellerId: 'Choose a seller.',
    });
  }
  return db.transaction(async (tx) => {
    if (!viewer.sellerId) {
      const [seller] = await tx.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, sellerId));
      if (!seller)
        throw new HttpError(400, 'Choose a seller that exists.', 'INVALID_SELLER', {
          sellerId: 'Choose a seller that exists.',
        });
    }
    await assertCategory(tx, body.categoryId);
    const defs = await categoryAttributeSet(tx, body.categoryId);
    const inputs = body.attributeValues ?? [];
    const media = await usableMedia(tx, sellerId, null, mediaIdsOf(inputs));
    const values = checkedValues(inputs, defs, media);
    const tagIds = body.tagIds ?? [];
    if (tagIds.length) await draftTagsOrThrow(tx, tagIds);
    const actor = await actorOf(tx, request);
    let row: ProductRow;
    try {
      [row] = (await tx
        .insert(products)
        .values({
          sellerId,
          ...productKeys(body.title, body.sku),
          categoryId: body.categoryId,
          priceMinor: Math.round(body.price * 100),
          currency: body.currency ?? 'INR',
          inventory: body.inventory,
          weight: body.weight ?? null,
          weightUnit: body.weightUnit ?? 'kg',
          dimensions: body.dimensions ?? null,
          tagIds,
          ...values,
        })
        .returning()) as [ProductRow];
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateSku(body.sku);
      throw error;
    }
    const images = await attachImages(tx, row.id, sellerId, body.imageIds ?? []);
    await claimAttributeMedia(tx, row.id, mediaIdsOf(inputs));
    [row] = (await tx.update(products).set(images).where(eq(products.id, row.id)).returning()) as [
      ProductRow,
    ];
    await recordAudit(tx, { subject: { type: 'product', id: row.id }, actor, action: 'created' });
    return row;
  });
}

/** The fields the history compares, in the order it lists them. */
const trackedFields = [
  'title',
  'sku',
  'categoryId',
  'price',
  'currency',
  'inventory',
  'weight',
  'weightUnit',
  'dimensions',
  'imageIds',
] as const;

export async function updateProduct(db: Db, request: FastifyRequest, id: string, body: UpdateProductBody) {
  const viewer = viewerOf(request);
  return db.transaction(async (tx) => {
    // The tag tree first, then the product: a tag deletion takes them in that order too (it retags the
    // products carrying the tag), so the two never wait for each other in a circle.
    if (body.tagIds !== undefined) await holdTagTree(tx);
    const current = await findProduct(tx, viewer, id, true);
    if (body.version !== current.version) {
      const last = await latestAuditEntry(tx, { type: 'product', id });
      throw new HttpError(
        409,
        `${last?.actorName ?? 'Someone'} changed this product after you opened it. Reload it to see their changes, then edit again.`,
        'STALE_PRODUCT',
      );
    }
    const categoryId = body.categoryId ?? current.categoryId;
    if (body.categoryId && body.categoryId !== current.categoryId) await assertCategory(tx, body.categoryId);
    const defs = categoryId ? await categoryAttributeSet(tx, categoryId) : new Map<number, AttributeDef>();
    // Values sent replace the stored ones; on a category change, values outside the new set are dropped.
    const inputs: AttributeValueInput[] =
      body.attributeValues ?? current.attributeValues.filter((value) => defs.has(value.keyId));
    const media = await usableMedia(tx, current.sellerId, id, mediaIdsOf(inputs));
    const values = checkedValues(inputs, defs, media);
    const currentImages = (
      await tx
        .select({ id: productMedia.id })
        .from(productMedia)
        .where(and(eq(productMedia.productId, id), sql`${productMedia.position} IS NOT NULL`))
        .orderBy(asc(productMedia.position))
    ).map((row) => row.id);
    const before = {
      ...current,
      price: current.priceMinor / 100,
      imageIds: currentImages,
    };
    const after = { ...body } as Record<string, unknown>;
    delete after.version;
    delete after.attributeValues;
    const changes = realChanges(
      diffFields(before as unknown as Record<string, unknown>, after, trackedFields),
    );
    const valueChanges = diffAttributeValues(current.attributeValues, values.attributeValues, defs);
    const tagChange = await diffTags(tx, current.tagIds, body.tagIds);
    const actor = await actorOf(tx, request);
    const images = body.imageIds ? await attachImages(tx, id, current.sellerId, body.imageIds) : {};
    await claimAttributeMedia(tx, id, mediaIdsOf(inputs));
    // Inventory is on hand: a new figure is a stock count (a move in the ledger), never below what
    // open orders hold; the count writes the product's inventory too.
    if (body.inventory !== undefined && body.inventory !== current.inventory)
      await countStock(tx, id, body.inventory, { note: 'Product editor', actor });
    let row: ProductRow;
    try {
      [row] = (await tx
        .update(products)
        .set({
          ...(body.title !== undefined || body.sku !== undefined
            ? productKeys(body.title ?? current.title, body.sku ?? current.sku)
            : {}),
          ...(body.categoryId !== undefined ? { categoryId: body.categoryId } : {}),
          ...(body.price !== undefined ? { priceMinor: Math.round(body.price * 100) } : {}),
          ...(body.currency !== undefined ? { currency: body.currency } : {}),
          ...(body.weight !== undefined ? { weight: body.weight } : {}),
          ...(body.weightUnit !== undefined ? { weightUnit: body.weightUnit } : {}),
          ...(body.dimensions !== undefined ? { dimensions: body.dimensions } : {}),
          ...(tagChange ? { tagIds: body.tagIds } : {}),
          ...values,
          ...images,
          version: current.version + 1,
          updatedAt: new Date(),
        })
        .where(eq(products.id, id))
        .returning()) as [ProductRow];
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateSku(body.sku ?? current.sku);
      throw error;
    }
    const all = [...changes, ...valueChanges, ...(tagChange ? [tagChange] : [])];
    if (all.length)
      await recordAudit(tx, { subject: { type: 'product', id: id }, actor, action: 'updated', changes: all });
    return row;
  });
}

/**
 * The tags sent, checked against the draft tree, as a history change (paths before → after), or null
 * when they are the tags the product already carries (in any order: then nothing is written).
 */
async function diffTags(
  tx: Tx,
  current: readonly string[],
  sent: readonly string[] | undefined,
): Promise<FieldChange | null> {
  if (sent === undefined || sameTags(current, sent)) return null;
  const after = await draftTagsOrThrow(tx, sent, current);
  const before = await readProductTags(tx, current);
  return { field: 'tags', before: tagLabels(before), after: tagLabels(after) };
}

/** Attribute changes for the history, named by the attribute's label and shown as plain values. */
function diffAttributeValues(
  before: Product['attributeValues'],
  after: Product['attributeValues'],
  defs: ReadonlyMap<number, AttributeDef>,
): FieldChange[] {
  const shown = (values: Product['attributeValues'], keyId: number) => {
    const value = values.find((candidate) => candidate.keyId === keyId);
    if (!value) return null;
    return 'values' in value ? value.values.map((item) => item.value) : value.value;
  };
  const ids = new Set([...before, ...after].map((value) => value.keyId));
  const changes: FieldChange[] = [];
  for (const keyId of ids) {
    const from = shown(before, keyId);
    const to = shown(after, keyId);
    if (JSON.stringify(from) !== JSON.stringify(to)) {
      changes.push({ field: defs.get(keyId)?.label ?? `Attribute ${keyId}`, before: from, after: to });
    }
  }
  return changes;
}

/** Staff and admins review; a seller acts on their own products only. */
export const transitionActorOf = (viewer: Viewer): TransitionActor =>
  viewer.sellerId ? 'seller' : 'reviewer';

export async function changeProductStatus(
  db: Db,
  request: FastifyRequest,
  id: string,
  body: { status: ProductStatus; reason?: string; version?: number },
) {
  const viewer = viewerOf(request);
  return db.transaction(async (tx) => {
    const current = await findProduct(tx, viewer, id, true);
    if (body.version !== undefined && body.version !== current.version) {
      throw new HttpError(
        409,
        'This product changed after you opened it. Reload it and try again.',
        'STALE_PRODUCT',
      );
    }
    const move = transitionsFrom(current.status, transitionActorOf(viewer)).find(
      (candidate) => candidate.to === body.status,
    );
    if (!move) {
      throw new HttpError(
        409,
        `A product that is ${productStatusLabels[current.status]} cannot become ${productStatusLabels[body.status]}${viewer.sellerId ? ' by its seller' : ''}.`,
        'INVALID_TRANSITION',
      );
    }
    if (move.needsReason && !body.reason) {
      throw new HttpError(400, 'Say why the product is rejected: the seller reads it.', 'REASON_REQUIRED', {
        reason: 'Say why the product is rejected.',
      });
    }
    if (move.needsComplete && current.completeness < 100) {
      throw new HttpError(
        409,
        'Fill in every required attribute before sending the product for review.',
        'INCOMPLETE_PRODUCT',
      );
    }
    const actor = await actorOf(tx, request);
    const [row] = (await tx
      .update(products)
      .set({
        status: body.status,
        statusReason: move.needsReason ? (body.reason ?? null) : null,
        version: current.version + 1,
        updatedAt: new Date(),
      })
      .where(eq(products.id, id))
      .returning()) as [ProductRow];
    await recordAudit(tx, {
      subject: { type: 'product', id: id },
      actor,
      action: 'status',
      changes: [{ field: 'status', before: current.status, after: body.status }],
      note: body.reason ?? null,
    });
    return row;
  });
}

/** The full product as the detail page shows it. */
export async function productDto(db: Db | Tx, row: ProductRow): Promise<Product> {
  const signer = await mediaSigner(db);
  const [names] = await db
    .select({ sellerName: sellers.sellerName, categoryName: categories.name })
    .from(sellers)
    .leftJoin(categories, eq(categories.id, sql`${row.categoryId}::uuid`))
    .where(eq(sellers.id, row.sellerId));
  const images = await db
    .select()
    .from(productMedia)
    .where(and(eq(productMedia.productId, row.id), sql`${productMedia.position} IS NOT NULL`))
    .orderBy(asc(productMedia.position));
  const defs = row.categoryId
    ? await categoryAttributeSet(db, row.categoryId)
    : new Map<number, AttributeDef>();
  const dimensions = row.dimensions as Dimensions | null;
  return {
    id: row.id,
    title: row.title,
    sku: row.sku,
    status: row.status,
    statusReason: row.statusReason,
    sellerId: row.sellerId,
    sellerName: names?.sellerName ?? '',
    categoryId: row.categoryId,
    categoryName: names?.categoryName ?? null,
    price: row.priceMinor / 100,
    currency: row.currency,
    inventory: row.inventory,
    completeness: row.completeness,
    imageCount: row.imageCount,
    thumbUrl: row.mainImageId ? signer.link(row.mainImageId, 'thumb') : null,
    updatedAt: row.updatedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    weight: row.weight,
    weightUnit: row.weightUnit,
    dimensions,
    volumetricWeight: dimensions ? Math.round(volumetricWeight(dimensions) * 1000) / 1000 : null,
    images: images.map((image) => ({
      id: image.id,
      ...signer.urls(image.id),
      width: image.width ?? 0,
      height: image.height ?? 0,
      fileName: image.fileName,
    })),
    tagIds: row.tagIds,
    tags: await readProductTags(db, row.tagIds),
    // Stored media values are paths; the answer carries links an <img> can open (media-urls.ts), and
    // an IMAGE value its thumbnail's (each size is signed on its own).
    attributeValues: row.attributeValues.map((value) => {
      const isImage = defs.get(value.keyId)?.dataType === 'IMAGE';
      const signed = <T extends { value: unknown }>(item: T) => ({
        ...item,
        value: signer.signStoredPath(item.value) as T['value'],
        ...(isImage ? { thumbUrl: signer.thumbOfStoredPath(item.value) } : {}),
      });
      return 'values' in value ? { ...value, values: value.values.map(signed) } : signed(value);
    }),
    missingAttributes: row.missingAttributes.map((attributeId) => {
      const def = defs.get(attributeId);
      return { id: attributeId, code: def?.code ?? '', label: def?.label ?? `Attribute ${attributeId}` };
    }),
    version: row.version,
  };
}
