// The demo catalogue a visitor judges the staging pages by: the attributes (catalog-attributes.ts) on
// the demo categories, about three hundred products spread over the demo sellers by what they sell
// (Kiran Electronics sells phones, Monsoon Tea sells tea), in every status (rejections with the reason
// the seller reads), some incomplete, each with its history, most with photos (demo-images.ts), and
// three shared saved views. The demo seller's own products keep their titles, SKUs and statuses
// (DEMO_SELLER_FIGURES: the seller dashboard and its tests count them) and get a category, attribute
// values and photos like the rest; the blocked seller's keep theirs too. Generated in memory with
// fixed seeds and written in a few multi-row inserts, inside seedDemo's transaction.
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import type { ProductStatus } from '../../contracts/catalog';
import type { QueryTree } from '../../contracts/query-tree';
import type { ViewState } from '../../contracts/saved-views';
import type { Tx } from '../db/client';
import { type FieldChange, productMedia, products, savedViews, sellers, users } from '../db/schema';
import { type Actor, type AuditEntryInput, recordAuditEntries } from '../lib/audit';
import { attributeIndexOf, completenessOf } from '../modules/attributes/attribute-values';
import { mediaPath } from '../modules/media/media-urls';
import { ensureSeedCatalog, type SeedCatalog } from './catalog-attributes';
import { type DemoFiles, demoPictures, storeDemoImage } from './demo-images';
import { type GeneratedProduct, generateProduct, profileOf, type Rng, rngOf } from './product-generator';
import type { DemoSellerIds } from './sellers';

/** What each demo seller sells (sellers.ts names), as leaf category paths; a repeated path is sold more. */
const SELLER_RANGES: Record<string, string[]> = {
  'Aurora Textiles': ['apparel/men', 'apparel/women', 'handicrafts/handloom'],
  'Banyan Crafts': ['handicrafts/woodwork', 'handicrafts/pottery', 'home-and-kitchen/decor'],
  'Cedar & Co': ['home-and-kitchen/furniture', 'home-and-kitchen/decor'],
  'Deccan Spices': ['food-and-beverages/spices', 'food-and-beverages/snacks'],
  'Everleaf Organics': ['beauty-and-personal-care/skincare', 'food-and-beverages/tea-and-coffee'],
  'Fable Footwear': ['apparel/men', 'apparel/women'],
  'Ganga Handloom': ['handicrafts/handloom', 'apparel/ethnic-wear'],
  'Harbor Home': ['home-and-kitchen/cookware', 'home-and-kitchen/decor', 'home-and-kitchen/lighting'],
  'Indigo Prints': ['apparel/women', 'apparel/ethnic-wear'],
  'Jaipur Gems': ['jewellery/gold', 'jewellery/silver', 'jewellery/fashion-jewellery'],
  'Kiran Electronics': ['electronics/mobiles', 'electronics/accessories', 'electronics/wearables'],
  'Lotus Ceramics': ['handicrafts/pottery', 'home-and-kitchen/cookware'],
  'Monsoon Tea': ['food-and-beverages/tea-and-coffee'],
  'Nilgiri Naturals': ['beauty-and-personal-care/skincare', 'beauty-and-personal-care/hair-care'],
  'Oak Street Toys': ['toys-and-baby/toys'],
  'Peacock Apparel': ['apparel/men', 'apparel/women', 'apparel/kids'],
  'Quartz Kitchen': ['home-and-kitchen/cookware'],
  'Riverstone Leather': ['apparel/men', 'electronics/accessories'],
  'Saffron Foods': ['food-and-beverages/snacks', 'food-and-beverages/spices'],
  'Teal Stationery': ['stationery/notebooks', 'stationery/writing'],
  'Umber Furniture': ['home-and-kitchen/furniture'],
  'Velvet Beauty': ['beauty-and-personal-care/makeup', 'beauty-and-personal-care/skincare'],
  'Westwind Sports': [
    'sports-and-outdoors/fitness',
    'sports-and-outdoors/cycling',
    'sports-and-outdoors/camping',
  ],
  'Yarn & Loom': ['handicrafts/handloom', 'apparel/kids'],
  // The one active electronics shop: mostly phones, so the phone view has something to show.
  'Zenith Audio': [
    'electronics/mobiles',
    'electronics/mobiles',
    'electronics/mobiles',
    'electronics/mobiles',
    'electronics/audio',
    'electronics/wearables',
  ],
  'Amber Lighting': ['home-and-kitchen/lighting'],
  'Blue Pottery House': ['handicrafts/pottery', 'home-and-kitchen/decor'],
  'Coral Jewels': ['jewellery/fashion-jewellery', 'jewellery/silver'],
  'Dune Outdoor': ['sports-and-outdoors/camping'],
  'Emerald Gardens': ['home-and-kitchen/decor'],
  'Fern Baby': ['toys-and-baby/baby-care', 'toys-and-baby/toys'],
  'Horizon Bags': ['electronics/accessories'],
  'Ivory Linen': ['handicrafts/handloom', 'home-and-kitchen/decor'],
  'Kestrel Bikes': ['sports-and-outdoors/cycling'],
};

/** The demo seller's and the blocked seller's existing products (subscriptions.ts), by title. */
const EXISTING_PRODUCT_CATEGORIES: Record<string, string> = {
  'Handloom Cotton Saree': 'apparel/ethnic-wear',
  'Block-print Table Runner': 'handicrafts/handloom',
  'Brass Diya Set': 'home-and-kitchen/decor',
  'Jute Storage Basket': 'home-and-kitchen/decor',
  'Terracotta Planter': 'handicrafts/pottery',
  'Kalamkari Cushion Cover': 'home-and-kitchen/decor',
  'Sandalwood Incense Box': 'home-and-kitchen/decor',
  'Copper Water Bottle': 'home-and-kitchen/cookware',
  'Madhubani Wall Art': 'home-and-kitchen/decor',
  'Bamboo Serving Tray': 'handicrafts/woodwork',
  'Pashmina Stole': 'handicrafts/handloom',
  'Indigo Dabu Bedsheet': 'handicrafts/handloom',
  'Marble Coaster Set': 'home-and-kitchen/decor',
  'Khadi Kurta': 'apparel/men',
};
const FALLBACK_CATEGORY = 'home-and-kitchen/decor';

/** Sellers who are not selling yet (pending verification or KYC, or inactive) only have these. */
const NOT_SELLING_STATUSES: ProductStatus[] = ['draft', 'draft', 'draft', 'rejected', 'inactive'];

/** How many photos a product has: most one or two, some none (a seller still preparing them). */
const PHOTO_COUNTS = [
  [0, 15],
  [1, 40],
  [2, 35],
  [3, 10],
] as const;

interface DemoProduct {
  id: string;
  sellerId: string;
  seller: Actor;
  generated: GeneratedProduct;
  photos: number;
  /** An update of an existing row (the demo and blocked sellers' own) rather than an insert. */
  existing: boolean;
}

/** The moves from draft that lead to `status`, each one statusTransitions allows: draft → in_review → rejected. */
function pathTo(status: ProductStatus): ProductStatus[] {
  const routes: Record<ProductStatus, ProductStatus[]> = {
    draft: [],
    in_review: ['in_review'],
    approved: ['in_review', 'approved'],
    live: ['in_review', 'approved', 'live'],
    rejected: ['in_review', 'rejected'],
    inactive: ['in_review', 'approved', 'live', 'inactive'],
  };
  return routes[status];
}

/** The history of a product: created by its seller, then each status move by whoever may make it. */
function historyOf(product: DemoProduct, reviewer: Actor, rng: Rng): AuditEntryInput[] {
  const { generated } = product;
  const start = generated.createdAt.getTime();
  const end = generated.updatedAt.getTime();
  const moves = pathTo(generated.status);
  const subject = { type: 'product', id: product.id } as const;
  const entries: AuditEntryInput[] = [
    { subject, actor: product.seller, action: 'created', at: generated.createdAt },
  ];
  let before: ProductStatus = 'draft';
  for (const [index, after] of moves.entries()) {
    // The seller sends a product for review and takes it offline; staff approve, reject and put it live.
    const actor = after === 'in_review' || after === 'inactive' ? product.seller : reviewer;
    const at =
      index === moves.length - 1
        ? end
        : start + ((end - start) * (index + 1 + rng.next() * 0.5)) / (moves.length + 1);
    const changes: FieldChange[] = [{ field: 'status', before, after }];
    entries.push({
      subject,
      actor,
      action: 'status',
      changes,
      note: after === 'rejected' ? generated.statusReason : null,
      at: new Date(Math.max(start + 1000, at)),
    });
    before = after;
  }
  return entries;
}

/** The admin's, the staff member's and the demo seller's shared views of the staging grid. */
function demoViews(
  catalog: SeedCatalog,
  owners: { admin: Actor; staff: Actor; seller: Actor },
  demoSellerId: string,
) {
  const mobiles = catalog.leaves.get('electronics/mobiles');
  const columns = [
    'image',
    'title',
    'sku',
    'seller',
    'category',
    'status',
    'price',
    'inventory',
    'completeness',
    'updatedAt',
  ];
  const state = (query: QueryTree, extra: Partial<ViewState> = {}): ViewState => ({
    query,
    search: '',
    columns,
    sort: 'updatedAt',
    order: 'desc',
    pageSize: 50,
    ...extra,
  });
  const views: (typeof savedViews.$inferInsert)[] = [];
  if (mobiles) {
    views.push({
      list: 'staging-products',
      ownerId: owners.admin.id!,
      name: 'Phones under ₹20,000 (live)',
      scope: 'everyone',
      state: state(
        {
          combinator: 'and',
          children: [
            { field: 'category', op: 'anyOf', value: [mobiles.id] },
            { field: 'status', op: 'anyOf', value: ['live'] },
            { field: 'price', op: 'lt', value: 20_000 },
          ],
        },
        {
          columns: [
            'image',
            'title',
            'seller',
            'price',
            'attr.ram_gb',
            'attr.storage_gb',
            'attr.screen_size',
            'attr.colour',
            'inventory',
          ],
          sort: 'price',
          order: 'asc',
        },
      ),
    });
  }
  views.push(
    {
      list: 'staging-products',
      ownerId: owners.staff.id!,
      name: 'Needs attention: incomplete or rejected',
      scope: 'team',
      // Not the products taken offline on purpose; of the rest, those a reviewer should chase.
      state: state({
        combinator: 'and',
        children: [
          { field: 'status', op: 'noneOf', value: ['inactive'] },
          {
            combinator: 'or',
            children: [
              { field: 'completeness', op: 'lt', value: 100 },
              { field: 'status', op: 'anyOf', value: ['rejected'] },
              { field: 'images', op: 'isEmpty' },
            ],
          },
        ],
      }),
    },
    {
      list: 'staging-products',
      ownerId: owners.seller.id!,
      ownerSellerId: demoSellerId,
      name: 'Drafts to finish',
      scope: 'team',
      state: state(
        { combinator: 'and', children: [{ field: 'status', op: 'anyOf', value: ['draft', 'rejected'] }] },
        { sort: 'completeness', order: 'asc' },
      ),
    },
  );
  return views;
}

/** Runs `work` over `items`, `limit` at a time (file writes: enough to keep the disk busy, no more). */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  for (let start = 0; start < items.length; start += limit) {
    await Promise.all(items.slice(start, start + limit).map(work));
  }
}

/**
 * Seeds the catalogue; photos only when `files` says where they go (the server's file storage, and its
 * DATA_DIR for scratch space).
 */
export async function seedDemoCatalog(tx: Tx, ids: DemoSellerIds, options: { files?: DemoFiles } = {}) {
  const catalog = await ensureSeedCatalog(tx);
  const leafById = new Map([...catalog.leaves.values()].map((leaf) => [leaf.id, leaf]));
  const now = Date.now();
  const accounts = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.email, ['admin@demo.local', 'staff@demo.local', 'seller@demo.local']));
  const account = (email: string): Actor => {
    const row = accounts.find((candidate) => candidate.email === email);
    return { id: row?.id ?? null, name: row ? `${row.firstName} ${row.lastName}` : email };
  };
  const admin = account('admin@demo.local');
  const staff = account('staff@demo.local');
  const demoUser = account('seller@demo.local');

  const allSellers = await tx.select().from(sellers);
  const demo: DemoProduct[] = [];
  const leafOf = (path: string) => {
    const leaf = catalog.leaves.get(path) ?? catalog.leaves.get(FALLBACK_CATEGORY);
    const profile = profileOf.get(leaf?.path ?? '');
    return leaf && profile ? { leaf, profile } : null;
  };

  // The demo and blocked sellers' own products: same title, SKU, status, price and dates.
  const existing = await tx
    .select()
    .from(products)
    .where(inArray(products.sellerId, [ids.demoSellerId, ids.blockedSellerId]))
    .orderBy(asc(products.sku));
  for (const [index, row] of existing.entries()) {
    const found = leafOf(EXISTING_PRODUCT_CATEGORIES[row.title] ?? FALLBACK_CATEGORY);
    if (!found) continue;
    const rng = rngOf(index, 101);
    const isDemo = row.sellerId === ids.demoSellerId;
    const seller = allSellers.find((candidate) => candidate.id === row.sellerId)!;
    // The demo seller's first draft is left incomplete, so "Drafts to finish" has work in it; the
    // rest are complete (the dashboard's products went through review).
    const firstDraft =
      isDemo &&
      row.status === 'draft' &&
      !demo.some((p) => p.sellerId === ids.demoSellerId && p.generated.status === 'draft');
    const generated = generateProduct(rng, found.leaf, found.profile, {
      sku: row.sku,
      title: row.title,
      status: row.status,
      incomplete: firstDraft,
      now,
    });
    const keep = (values: GeneratedProduct) => ({
      ...values,
      priceMinor: row.priceMinor,
      currency: row.currency,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
    demo.push({
      id: row.id,
      sellerId: row.sellerId,
      seller: isDemo ? demoUser : { id: null, name: seller.sellerName },
      generated: keep(generated),
      photos: row.status === 'draft' && index % 3 === 0 ? 0 : 1 + (index % 3),
      existing: true,
    });
  }

  // Everyone else's: an active seller sells a range (18 to 28 products, in every status); one still
  // onboarding or inactive has a few drafts, rejections or products taken offline.
  for (const seller of allSellers.sort((a, b) => a.sellerCode.localeCompare(b.sellerCode))) {
    const range = SELLER_RANGES[seller.sellerName];
    // The demo accounts' sellers show exact figures on their dashboards (the KYC seller has none yet).
    if (!range?.length || Object.values(ids).includes(seller.id)) continue;
    const rng = rngOf(Number.parseInt(seller.sellerCode.replace(/\D/g, ''), 10), 7);
    const selling = seller.isActive && !seller.blocked;
    const count = selling ? rng.int(18, 28) : rng.int(2, 5);
    // A shop's own label, when it is one of the brands ("Zenith" for Zenith Audio).
    const houseBrand = [...(catalog.defs.get('brand')?.options.values() ?? [])]
      .filter((brand) => seller.sellerName.startsWith(brand))
      .sort((a, b) => b.length - a.length)[0];
    const code = seller.sellerCode.replace(/[^A-Z0-9]/gi, '');
    for (let i = 0; i < count; i++) {
      const found = leafOf(rng.pick(range));
      if (!found) continue;
      const generated = generateProduct(rng, found.leaf, found.profile, {
        sku: `${code}-${found.leaf.path.split('/')[1]!.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(3, '0')}`,
        status: selling ? undefined : rng.pick(NOT_SELLING_STATUSES),
        brand: houseBrand,
        now,
        ageDays: 300,
      });
      demo.push({
        id: randomUUID(),
        sellerId: seller.id,
        seller: { id: null, name: seller.sellerName },
        generated,
        photos: rng.weighted(PHOTO_COUNTS),
        existing: false,
      });
    }
  }

  // Photos: gallery images, and a size chart for some apparel (an IMAGE attribute value).
  const media: (typeof productMedia.$inferInsert)[] = [];
  if (options.files) {
    const { storage, dataDir } = options.files;
    const pictures = await demoPictures(dataDir);
    const sizeChart = catalog.defs.get('size_chart');
    const jobs = demo.flatMap((product, index) => {
      const choices = pictures.get(product.generated.picture) ?? [];
      if (!choices.length) return [];
      const gallery = Array.from({ length: product.photos }, (_, position) => ({
        product,
        position: position as number | null,
        picture: choices[(index + position) % choices.length]!,
      }));
      // Every fourth garment has a size chart (a picture of it stands in for the chart).
      const hasChart = sizeChart && leafById.get(product.generated.categoryId)?.set.has(sizeChart.id);
      const chart = hasChart && product.generated.picture === 'shirt' && index % 4 === 0;
      return chart ? [...gallery, { product, position: null, picture: choices[0]! }] : gallery;
    });
    await inBatches(jobs, 32, async ({ product, position, picture }) => {
      const stored = await storeDemoImage(storage, picture);
      const id = randomUUID();
      const slug = product.generated.titleKey
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60);
      media.push({
        id,
        sellerId: product.sellerId,
        productId: product.id,
        kind: 'image',
        position,
        fileName: `${slug || 'product'}-${position === null ? 'size-chart' : position + 1}.jpg`,
        mimeType: 'image/jpeg',
        size: stored.size,
        width: stored.width,
        height: stored.height,
        storagePath: stored.storagePath,
        derivatives: stored.derivatives,
        uploadedBy: product.existing && product.sellerId === ids.demoSellerId ? demoUser.id : null,
        createdAt: product.generated.createdAt,
      });
    });
  }
  const galleryOf = new Map<string, { count: number; main: string | null }>();
  for (const row of media.sort((a, b) => (a.position ?? 99) - (b.position ?? 99))) {
    if (row.position === null || row.position === undefined) continue;
    const entry = galleryOf.get(row.productId!) ?? { count: 0, main: null };
    galleryOf.set(row.productId!, {
      count: entry.count + 1,
      main: row.position === 0 ? row.id! : entry.main,
    });
  }
  // A size chart is an attribute value: the product's values, index and completeness include it.
  const sizeChart = catalog.defs.get('size_chart');
  for (const row of media) {
    if (row.position !== null || !sizeChart) continue;
    const product = demo.find((candidate) => candidate.id === row.productId)!;
    const leaf = leafById.get(product.generated.categoryId);
    if (!leaf?.set.has(sizeChart.id)) continue;
    const values = [
      ...product.generated.attributeValues,
      { keyId: sizeChart.id, value: mediaPath(row.id!), valueId: row.id! },
    ].sort((a, b) => [...leaf.set.keys()].indexOf(a.keyId) - [...leaf.set.keys()].indexOf(b.keyId));
    product.generated = {
      ...product.generated,
      attributeValues: values,
      attrIndex: attributeIndexOf(values, leaf.set),
      ...completenessOf(values, leaf.set),
    };
  }

  const rowOf = (product: DemoProduct) => {
    const { picture: _picture, ...columns } = product.generated;
    const gallery = galleryOf.get(product.id);
    return {
      ...columns,
      id: product.id,
      sellerId: product.sellerId,
      imageCount: gallery?.count ?? 0,
      mainImageId: gallery?.main ?? null,
      // A product that went through review has been written a few times.
      version: 1 + pathTo(columns.status).length,
    };
  };
  const inserts = demo.filter((product) => !product.existing).map(rowOf);
  for (let start = 0; start < inserts.length; start += 200) {
    await tx.insert(products).values(inserts.slice(start, start + 200));
  }
  for (const product of demo.filter((candidate) => candidate.existing)) {
    const {
      id: _id,
      sellerId: _seller,
      title: _title,
      sku: _sku,
      titleKey: _t,
      skuKey: _s,
      status: _status,
      ...row
    } = rowOf(product);
    await tx.update(products).set(row).where(eq(products.id, product.id));
  }
  for (let start = 0; start < media.length; start += 300) {
    await tx.insert(productMedia).values(media.slice(start, start + 300));
  }
  const history = demo.flatMap((product, index) =>
    historyOf(product, index % 3 === 0 ? admin : staff, rngOf(index, 13)),
  );
  await recordAuditEntries(tx, history);
  await tx
    .insert(savedViews)
    .values(demoViews(catalog, { admin, staff, seller: demoUser }, ids.demoSellerId));
  return { products: demo.length, images: media.length };
}
