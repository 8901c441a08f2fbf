// Realistic staging products, for the demo catalogue and for `npm run seed -- --products N`. One
// generator for both, so the demo a visitor judges and the 200k-product benchmark hold the same kind of
// data: titles a marketplace would show ("Zenith Nova 12 5G (Black, 8 GB RAM, 128 GB)"), prices in
// each category's range (log-uniform, ending in 9), skewed options (black phones outnumber teal ones),
// numbers in their real spread, every lifecycle status with the completeness it implies, and the
// search columns the server derives. The derived columns come from the server's own functions
// (productKeys, attributeIndexOf, completenessOf), so a generated row is exactly what the API would
// have written. Deterministic: the same seed number makes the same product.
import type {
  AttributeScalar,
  AttributeValue,
  Dimensions,
  ProductStatus,
  WeightUnit,
} from '../../contracts/catalog';
import { type AttributeDef, attributeIndexOf, completenessOf } from '../modules/attributes/attribute-values';
import { productKeys } from '../modules/products/product-keys';
import { BRANDS, type SeedCategory } from './catalog-attributes';

// ── Randomness ───────────────────────────────────────────────────────────────────────────────────────

export interface Rng {
  /** [0, 1) */
  next(): number;
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** One of `entries` with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `min`…`max` distinct items of `list`. */
  some<T>(list: readonly T[], min: number, max: number): T[];
}

/** mulberry32 over a seed mixed with a salt: small, fast and good enough for test data. */
export function rngOf(seed: number, salt = 0): Rng {
  let state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35)) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (list) => list[Math.floor(next() * list.length)]!,
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let point = next() * total;
      for (const [value, weight] of entries) {
        point -= weight;
        if (point < 0) return value;
      }
      return entries[entries.length - 1]![0];
    },
    some: (list, min, max) => {
      const pool = [...list];
      const n = Math.min(pool.length, rng.int(min, max));
      const chosen: (typeof list)[number][] = [];
      for (let i = 0; i < n; i++) chosen.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
      return chosen;
    },
  };
  return rng;
}

// ── Value spreads ────────────────────────────────────────────────────────────────────────────────────

/** Colours as shoppers buy them: black and white first, teal rarely. */
const COLOUR_SPREAD = [
  ['Black', 20],
  ['White', 13],
  ['Blue', 10],
  ['Grey', 8],
  ['Red', 7],
  ['Green', 6],
  ['Beige', 5],
  ['Brown', 5],
  ['Pink', 5],
  ['Navy', 4],
  ['Silver', 4],
  ['Gold', 3],
  ['Maroon', 3],
  ['Mustard', 3],
  ['Teal', 2],
  ['Multicolour', 2],
] as const;

const LOCAL_ORIGIN = [
  ['India', 88],
  ['China', 5],
  ['Bangladesh', 3],
  ['Sri Lanka', 2],
  ['Thailand', 2],
] as const;
const IMPORTED_ORIGIN = [
  ['China', 46],
  ['India', 38],
  ['Vietnam', 11],
  ['Japan', 3],
  ['Germany', 2],
] as const;

export const productStatusSpread = [
  ['live', 50],
  ['draft', 16],
  ['inactive', 14],
  ['in_review', 8],
  ['approved', 7],
  ['rejected', 5],
] as const satisfies readonly (readonly [ProductStatus, number])[];

/**
 * How often a product of each status lacks a required attribute. Sending for review needs every one
 * filled, so only drafts (and rejections sent back for it) are often incomplete; a live product
 * lacks one when an admin made an attribute required after it went live.
 */
const INCOMPLETE_SHARE: Record<ProductStatus, number> = {
  draft: 0.45,
  rejected: 0.3,
  inactive: 0.1,
  live: 0.03,
  in_review: 0,
  approved: 0,
};

export const REJECTION_REASONS = [
  'The photos are blurry and carry a watermark. Upload clear photos on a plain background.',
  'The title does not match the product in the photos.',
  'The price looks wrong for this product. Check it and send it again.',
  'Add the net quantity and the country of origin, as the Legal Metrology rules ask.',
  'Selling this brand needs an authorisation letter from the brand owner.',
  'The description copies another listing word for word. Write your own.',
];

const OTHER_CURRENCIES = [
  ['USD', 0.012],
  ['EUR', 0.011],
  ['GBP', 0.0095],
  ['Yen', 1.8],
  ['PLN', 0.048],
] as const;

const FEATURES: Record<string, string[]> = {
  electronics: [
    'Fast charging over USB-C',
    'Bluetooth 5.3 with a stable, low-latency connection',
    'Backed by a brand warranty and service centres in 300 cities',
    'BIS certified',
    'Free software updates for two years',
    'Ships with a charger and a protective case',
  ],
  apparel: [
    'Breathable fabric for Indian summers',
    'Colour-fast dyes that survive machine washing',
    'True to size: pick your usual size',
    'Stitched with reinforced seams',
    'Made in small batches by partner weavers',
    'Easy returns within 10 days',
  ],
  'home-and-kitchen': [
    'Food-grade materials, free of lead',
    'Works on gas and induction',
    'Easy to clean, dishwasher safe',
    'Arrives fully assembled',
    'Sturdy finish that resists scratches',
    'Packed in recyclable cartons',
  ],
  'beauty-and-personal-care': [
    'Dermatologically tested',
    'Free of parabens and sulphates',
    'Not tested on animals',
    'Suits Indian skin tones',
    'Lightweight and non-greasy',
    'With natural actives such as aloe and saffron',
  ],
  'food-and-beverages': [
    'Sourced directly from farmers',
    'No added colours or preservatives',
    'Packed fresh in a resealable pouch',
    'FSSAI licensed facility',
    'Small-batch roasted for aroma',
    'Rich in natural flavour',
  ],
  handicrafts: [
    'Handmade by artisans, each piece a little different',
    'Natural dyes and finishes',
    'A GI-tagged craft',
    'Fair wages paid to the craftspeople',
    'Gift-ready packaging',
    'Wipe clean with a dry cloth',
  ],
  jewellery: [
    'Hallmarked and certified',
    'Nickel-free and skin-friendly',
    'Comes in a velvet gift box',
    'Anti-tarnish coating',
    'Lifetime exchange at our stores',
    'Handcrafted by karigars in Jaipur',
  ],
  'sports-and-outdoors': [
    'Tested on Himalayan trails',
    'Sweat-resistant and quick-drying',
    'Lightweight for everyday training',
    'Ships with a one-year warranty',
    'Reflective details for early mornings',
    'Built for Indian roads',
  ],
  stationery: [
    'Acid-free paper that does not yellow',
    'Smooth ink flow without smudges',
    'Lay-flat binding',
    'Made from recycled paper',
    'Ideal for students and offices',
    'Refillable',
  ],
  'toys-and-baby': [
    'Non-toxic, child-safe paints',
    'BIS certified for safety',
    'Rounded edges for little hands',
    'Builds motor skills and creativity',
    'Soft on sensitive baby skin',
    'Machine washable',
  ],
};

const CARE = [
  'Machine wash cold, dry in shade',
  'Hand wash separately in cold water',
  'Dry clean only',
  'Wipe with a soft dry cloth',
  'Do not bleach; iron on low heat',
];

// ── Category profiles ────────────────────────────────────────────────────────────────────────────────

/** The product pictures the demo renders (demo-images.ts); each category shows one of them. */
export const pictureKinds = [
  'phone',
  'watch',
  'headphones',
  'charger',
  'shirt',
  'fabric',
  'pan',
  'lamp',
  'chair',
  'vase',
  'jar',
  'notebook',
  'ring',
  'dumbbell',
] as const;
export type PictureKind = (typeof pictureKinds)[number];

type Raw = string | number | boolean | string[] | Record<string, unknown>;
type Values = Map<string, Raw>;

interface Profile {
  /** The leaf category, "parent/child". */
  path: string;
  /** Its share of a generated catalogue (relative). */
  share: number;
  picture: PictureKind;
  /** Price range in rupees. */
  price: [number, number];
  /** Weight range in kg. */
  weightKg: [number, number];
  /** A typical box, cm. */
  box: [number, number, number];
  types: string[];
  materials?: string[];
  keywords: string[];
  /** Values this category gives differently from the attribute's usual spread. */
  values?: Record<string, (rng: Rng, type: string) => Raw>;
  title: (values: Values, type: string, rng: Rng) => string;
}

const text = (values: Values, code: string) => {
  const value = values.get(code);
  return Array.isArray(value) ? (value[0] ?? '') : value === undefined ? '' : String(value);
};
/** "Mango wood" → "Mango Wood", as titles capitalise. */
const titled = (value: string) => value.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
/** An attribute's text as a title shows it. */
const word = (values: Values, code: string) => titled(text(values, code));
/** " - Black" when the product has a colour. */
const inColour = (values: Values) => (values.has('colour') ? ` - ${text(values, 'colour')}` : '');
const model = (rng: Rng, names: readonly string[]) =>
  `${rng.pick(names)} ${rng.pick(['', '', '2', '3', '5', '7', '9', '12', '20', 'X', 'Pro', 'Neo', 'Lite'])}`.trim();
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

const PROFILES: Profile[] = [
  {
    path: 'electronics/mobiles',
    share: 8,
    picture: 'phone',
    // Most phones Indian shoppers buy cost under ₹20,000; flagships are the long tail.
    price: [5999, 49999],
    weightKg: [0.16, 0.24],
    box: [17, 9, 6],
    types: ['Smartphone'],
    keywords: ['android', 'smartphone', 'dual sim', 'amoled', 'fast charging', '50 mp camera'],
    values: {
      screen_size: (rng) =>
        rng.weighted([
          [5.8, 3],
          [6.1, 10],
          [6.4, 12],
          [6.5, 15],
          [6.56, 8],
          [6.67, 18],
          [6.72, 12],
          [6.78, 12],
          [6.82, 6],
          [5.4, 4],
        ]),
      battery_mah: (rng) =>
        rng.weighted([
          [4000, 2],
          [4500, 3],
          [5000, 10],
          [5500, 3],
          [6000, 2],
        ]),
      five_g: (rng) => rng.chance(0.65),
      specs: (rng) => ({
        processor: rng.pick(['Dimensity 7200', 'Snapdragon 7s Gen 2', 'Helio G99', 'Snapdragon 8 Gen 3']),
        rearCamera: rng.pick(['50 MP + 8 MP', '108 MP + 2 MP', '64 MP + 8 MP + 2 MP']),
        os: 'Android 15',
      }),
    },
    title: (v, _type, rng) =>
      `${text(v, 'brand')} ${model(rng, ['Nova', 'Pulse', 'Orbit', 'Aero', 'Edge', 'Spark', 'Titan', 'Volt'])}` +
      `${v.get('five_g') === true ? ' 5G' : ''} (${text(v, 'colour') || 'Black'}, ${v.get('ram_gb') ?? 8} GB RAM, ${v.get('storage_gb') ?? 128} GB)`,
  },
  {
    path: 'electronics/wearables',
    share: 4,
    picture: 'watch',
    price: [1499, 24999],
    weightKg: [0.04, 0.09],
    box: [12, 9, 7],
    types: ['Smartwatch', 'Fitness Band'],
    keywords: ['smartwatch', 'fitness tracker', 'heart rate', 'spo2', 'bluetooth calling', 'amoled'],
    values: {
      screen_size: (rng, type) => oneDecimal((type === 'Fitness Band' ? 1.1 : 1.3) + rng.next() * 0.7),
      battery_mah: (rng) => rng.int(18, 60) * 10,
    },
    title: (v, type, rng) =>
      `${text(v, 'brand')} ${model(rng, ['Fit', 'Active', 'Stride', 'Pulse'])} ${type} with ${v.get('screen_size') ?? 1.4}" Display` +
      (v.has('colour') ? `, ${text(v, 'colour')} Strap` : ''),
  },
  {
    path: 'electronics/audio',
    share: 6,
    picture: 'headphones',
    price: [599, 24999],
    weightKg: [0.05, 1.8],
    box: [18, 16, 8],
    types: ['Wireless Earbuds', 'Bluetooth Headphones', 'Neckband', 'Portable Speaker', 'Soundbar'],
    keywords: ['wireless', 'bluetooth', 'bass', 'earbuds', 'anc', 'low latency', 'ipx5'],
    values: {
      battery_mah: (rng, type) => (type === 'Soundbar' ? 0 : rng.int(3, 50) * 50),
      noise_cancelling: (rng) => rng.chance(0.4),
    },
    title: (v, type, rng) =>
      `${text(v, 'brand')} ${model(rng, ['Rockerz', 'Airdopes', 'Bassline', 'Tune', 'Beat'])} ` +
      `${v.get('noise_cancelling') === true ? 'ANC ' : ''}${type}${inColour(v)}`,
  },
  {
    path: 'electronics/accessories',
    share: 7,
    picture: 'charger',
    price: [199, 3999],
    weightKg: [0.05, 0.9],
    box: [14, 10, 5],
    types: [
      '20W USB-C Fast Charger',
      '10000 mAh Power Bank',
      'Braided USB-C Cable 1.5 m',
      'Laptop Backpack 15.6 inch',
      'Silicone Phone Case',
      'Tempered Glass Screen Guard',
      'Wireless Mouse',
    ],
    keywords: ['charger', 'usb-c', 'power bank', 'cable', 'case', 'wireless', 'accessory'],
    values: { battery_mah: (rng, type) => (type.includes('Power Bank') ? 10000 : rng.int(0, 1) * 500) },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'apparel/men',
    share: 8,
    picture: 'shirt',
    price: [399, 4999],
    weightKg: [0.15, 0.8],
    box: [30, 25, 4],
    types: [
      'Kurta',
      'Casual Shirt',
      'Polo T-Shirt',
      'Chinos',
      'Nehru Jacket',
      'Slim Fit Jeans',
      'Track Pants',
    ],
    materials: ['Cotton', 'Linen', 'Polyester', 'Denim', 'Silk', 'Rayon'],
    keywords: ['men', 'cotton', 'casual', 'office wear', 'kurta', 'summer'],
    values: {
      gender: () => 'Men',
      material: (rng, type) =>
        type.includes('Jeans') ? ['Denim'] : rng.some(['Cotton', 'Linen', 'Rayon'], 1, 2),
    },
    title: (v, type) =>
      `${text(v, 'brand')} Men's ${text(v, 'pattern') && text(v, 'pattern') !== 'Solid' ? `${text(v, 'pattern')} ` : ''}${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'apparel/women',
    share: 10,
    picture: 'shirt',
    price: [449, 5999],
    weightKg: [0.15, 0.9],
    box: [30, 25, 4],
    types: ['Kurti', 'Anarkali Kurta', 'Maxi Dress', 'Top', 'Palazzo Set', 'Dupatta', 'Shrug'],
    keywords: ['women', 'kurti', 'ethnic', 'casual', 'summer', 'cotton', 'rayon'],
    values: {
      gender: () => 'Women',
      material: (rng) => rng.some(['Cotton', 'Rayon', 'Silk', 'Linen', 'Polyester'], 1, 2),
    },
    title: (v, type) =>
      `${text(v, 'brand')} Women's ${text(v, 'pattern') && text(v, 'pattern') !== 'Solid' ? `${text(v, 'pattern')} ` : ''}${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'apparel/kids',
    share: 4,
    picture: 'shirt',
    price: [249, 1999],
    weightKg: [0.1, 0.5],
    box: [25, 20, 4],
    types: ['T-Shirt', 'Frock', 'Shorts Set', 'Ethnic Kurta Set', 'Pyjama Set'],
    keywords: ['kids', 'cotton', 'soft', 'playwear', 'festive'],
    values: {
      gender: (rng, type) => (type === 'Frock' ? 'Girls' : rng.pick(['Boys', 'Girls'])),
      material: (rng) => rng.some(['Cotton', 'Polyester'], 1, 1),
      size: (rng) => rng.pick(['XS', 'S', 'M']),
    },
    title: (v, type) =>
      `${text(v, 'brand')} ${text(v, 'gender')}' ${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'apparel/ethnic-wear',
    share: 6,
    picture: 'fabric',
    price: [999, 24999],
    weightKg: [0.4, 1.6],
    box: [35, 28, 6],
    types: ['Saree with Blouse Piece', 'Lehenga Choli', 'Sherwani', 'Kurta Pyjama Set', 'Salwar Suit'],
    keywords: ['ethnic', 'festive', 'wedding', 'saree', 'kurta', 'silk', 'handloom'],
    values: {
      gender: (_rng, type) => (type === 'Sherwani' || type === 'Kurta Pyjama Set' ? 'Men' : 'Women'),
      material: (rng) => rng.some(['Silk', 'Cotton', 'Linen', 'Rayon'], 1, 2),
      size: (rng, type) => (type.startsWith('Saree') ? 'Free size' : rng.pick(['S', 'M', 'L', 'XL'])),
      pattern: (rng) => rng.pick(['Embroidered', 'Block print', 'Ikat', 'Bandhani', 'Solid']),
    },
    title: (v, type) =>
      `${text(v, 'brand')} ${text(v, 'pattern') === 'Solid' ? '' : `${text(v, 'pattern')} `}${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'home-and-kitchen/cookware',
    share: 4,
    picture: 'pan',
    price: [499, 5999],
    weightKg: [0.6, 4.5],
    box: [35, 30, 18],
    types: ['Pressure Cooker', 'Kadai', 'Tawa', 'Saucepan', 'Casserole', 'Frying Pan', 'Tope Set'],
    keywords: ['cookware', 'induction', 'kitchen', 'non-stick', 'steel', 'gas stove'],
    values: {
      material: (rng) => [rng.pick(['Stainless steel', 'Cast iron', 'Aluminium', 'Copper'])],
      capacity_l: (rng) => rng.pick([1, 1.5, 2, 3, 3.5, 5, 7.5]),
    },
    title: (v, type) => `${text(v, 'brand')} ${word(v, 'material')} ${type} ${v.get('capacity_l') ?? 3} L`,
  },
  {
    path: 'home-and-kitchen/decor',
    share: 5,
    picture: 'vase',
    price: [199, 3999],
    weightKg: [0.2, 3],
    box: [30, 30, 20],
    types: [
      'Wall Clock',
      'Photo Frame Set',
      'Cushion Cover Set of 5',
      'Scented Candle',
      'Wall Hanging',
      'Planter',
    ],
    keywords: ['decor', 'home', 'gift', 'living room', 'festive', 'handmade'],
    values: { material: (rng) => [rng.pick(['Mango wood', 'Cotton', 'Ceramic', 'Brass', 'Jute', 'Glass'])] },
    title: (v, type) => `${text(v, 'brand')} ${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'home-and-kitchen/furniture',
    share: 2,
    picture: 'chair',
    price: [2999, 49999],
    weightKg: [4, 45],
    box: [90, 60, 45],
    types: [
      'Coffee Table',
      'Bookshelf',
      'Study Chair',
      'Shoe Rack',
      'Bedside Table',
      'TV Unit',
      '3-Seater Sofa',
    ],
    keywords: ['furniture', 'solid wood', 'living room', 'storage', 'sheesham'],
    values: { material: (rng) => [rng.pick(['Sheesham wood', 'Mango wood', 'Stainless steel'])] },
    title: (v, type) => `${text(v, 'brand')} ${word(v, 'material')} ${type}${inColour(v)}`,
  },
  {
    path: 'home-and-kitchen/lighting',
    share: 3,
    picture: 'lamp',
    price: [299, 6999],
    weightKg: [0.2, 4],
    box: [40, 25, 25],
    types: ['Table Lamp', 'Floor Lamp', 'Pendant Light', 'LED Batten', 'String Lights', 'Wall Sconce'],
    keywords: ['lamp', 'led', 'warm white', 'lighting', 'festive', 'bedroom'],
    values: {
      material: (rng) => [rng.pick(['Brass', 'Glass', 'Mango wood', 'Aluminium', 'Jute'])],
      power_w: (rng) => rng.pick([5, 9, 12, 18, 20, 40, 60]),
    },
    title: (v, type) => `${text(v, 'brand')} ${word(v, 'material')} ${type} ${v.get('power_w') ?? 9} W`,
  },
  {
    path: 'beauty-and-personal-care/skincare',
    share: 4,
    picture: 'jar',
    price: [199, 1499],
    weightKg: [0.05, 0.35],
    box: [12, 6, 6],
    types: [
      'Vitamin C Face Serum',
      'Aloe Vera Gel',
      'Sunscreen SPF 50',
      'Night Cream',
      'Face Wash',
      'Kumkumadi Oil',
    ],
    keywords: ['skincare', 'glow', 'vitamin c', 'sunscreen', 'natural', 'paraben free'],
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_quantity_ml') ?? 50} ml`,
  },
  {
    path: 'beauty-and-personal-care/makeup',
    share: 3,
    picture: 'jar',
    price: [149, 1999],
    weightKg: [0.02, 0.2],
    box: [10, 5, 5],
    types: ['Matte Lipstick', 'Kajal', 'Compact Powder', 'Liquid Foundation', 'Nail Polish', 'Eyeliner'],
    keywords: ['makeup', 'matte', 'long lasting', 'smudge proof', 'lipstick', 'kajal'],
    values: { net_quantity_ml: (rng) => rng.pick([4, 6, 10, 15, 30]) },
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_quantity_ml') ?? 10} ml`,
  },
  {
    path: 'beauty-and-personal-care/hair-care',
    share: 2,
    picture: 'jar',
    price: [149, 999],
    weightKg: [0.1, 0.6],
    box: [15, 7, 7],
    types: ['Onion Hair Oil', 'Anti-Dandruff Shampoo', 'Conditioner', 'Hair Mask', 'Bhringraj Oil'],
    keywords: ['hair care', 'hair fall', 'shampoo', 'hair oil', 'ayurvedic'],
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_quantity_ml') ?? 200} ml`,
  },
  {
    path: 'food-and-beverages/tea-and-coffee',
    share: 2,
    picture: 'jar',
    price: [149, 1499],
    weightKg: [0.1, 1],
    box: [15, 10, 8],
    types: [
      'Assam CTC Tea',
      'Darjeeling First Flush Tea',
      'Masala Chai',
      'Filter Coffee Powder',
      'Green Tea',
      'Kashmiri Kahwa',
    ],
    keywords: ['tea', 'chai', 'coffee', 'assam', 'darjeeling', 'organic'],
    values: { net_weight_g: (rng) => rng.pick([100, 250, 250, 500, 1000]) },
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_weight_g') ?? 250} g`,
  },
  {
    path: 'food-and-beverages/spices',
    share: 2,
    picture: 'jar',
    price: [49, 599],
    weightKg: [0.05, 0.5],
    box: [12, 8, 6],
    types: [
      'Garam Masala',
      'Kashmiri Red Chilli Powder',
      'Turmeric Powder',
      'Sambar Masala',
      'Whole Cardamom',
      'Kitchen King Masala',
    ],
    keywords: ['spices', 'masala', 'pure', 'no preservatives', 'homestyle'],
    values: { net_weight_g: (rng) => rng.pick([50, 100, 100, 200, 500]) },
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_weight_g') ?? 100} g`,
  },
  {
    path: 'food-and-beverages/snacks',
    share: 2,
    picture: 'jar',
    price: [49, 399],
    weightKg: [0.1, 0.5],
    box: [20, 14, 6],
    types: ['Banana Chips', 'Bhujia Sev', 'Roasted Makhana', 'Khakhra', 'Peanut Chikki', 'Kerala Mixture'],
    keywords: ['snacks', 'namkeen', 'healthy', 'roasted', 'tea time'],
    values: { net_weight_g: (rng) => rng.pick([80, 150, 200, 400]) },
    title: (v, type) => `${text(v, 'brand')} ${type} ${v.get('net_weight_g') ?? 200} g`,
  },
  {
    path: 'handicrafts/pottery',
    share: 2,
    picture: 'vase',
    price: [299, 4999],
    weightKg: [0.3, 4],
    box: [30, 30, 30],
    types: [
      'Terracotta Planter',
      'Blue Pottery Vase',
      'Ceramic Dinner Set',
      'Clay Water Bottle',
      'Handpainted Mug Set',
      'Kulhad Set of 6',
    ],
    keywords: ['pottery', 'terracotta', 'handmade', 'clay', 'jaipur blue pottery', 'gift'],
    values: { material: (_rng, type) => [/Terracotta|Clay|Kulhad/.test(type) ? 'Terracotta' : 'Ceramic'] },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'handicrafts/handloom',
    share: 2,
    picture: 'fabric',
    price: [399, 6999],
    weightKg: [0.2, 2],
    box: [35, 28, 6],
    types: [
      'Ikat Cotton Dupatta',
      'Handwoven Table Runner',
      'Khadi Bedsheet',
      'Jamdani Stole',
      'Kantha Quilt',
      'Durrie Rug',
    ],
    keywords: ['handloom', 'handwoven', 'khadi', 'ikat', 'artisan', 'cotton'],
    values: { material: (rng) => rng.some(['Cotton', 'Silk', 'Jute', 'Wool'], 1, 2) },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'handicrafts/woodwork',
    share: 2,
    picture: 'chair',
    price: [299, 4999],
    weightKg: [0.2, 3],
    box: [30, 20, 10],
    types: [
      'Serving Tray',
      'Carved Jewellery Box',
      'Wall Shelf',
      'Channapatna Toy Set',
      'Chopping Board',
      'Elephant Figurine',
    ],
    keywords: ['woodwork', 'handcarved', 'sheesham', 'gift', 'channapatna'],
    values: { material: (rng) => [rng.pick(['Sheesham wood', 'Mango wood', 'Bamboo'])] },
    title: (v, type) => `${text(v, 'brand')} ${word(v, 'material')} ${type}`,
  },
  {
    path: 'jewellery/gold',
    share: 1,
    picture: 'ring',
    price: [8999, 249999],
    weightKg: [0.01, 0.08],
    box: [8, 8, 5],
    types: ['Jhumka Earrings', 'Mangalsutra', 'Chain', 'Bangle Pair', 'Stud Earrings', 'Ring'],
    keywords: ['gold', 'hallmarked', 'bridal', 'jewellery', 'festive'],
    values: {
      metal: (rng) => rng.pick(['22K gold', '18K gold']),
      net_weight_g: (rng) => oneDecimal(1.5 + rng.next() * 28),
    },
    title: (v, type) => `${text(v, 'brand')} ${text(v, 'metal')} ${type} ${v.get('net_weight_g') ?? 4} g`,
  },
  {
    path: 'jewellery/silver',
    share: 2,
    picture: 'ring',
    price: [499, 14999],
    weightKg: [0.01, 0.3],
    box: [10, 10, 5],
    types: ['Anklet Pair', 'Oxidised Jhumkas', 'Toe Ring Pair', 'Pooja Thali', 'Bracelet'],
    keywords: ['silver', 'oxidised', 'sterling', 'jewellery', 'gift'],
    values: {
      metal: (rng) => rng.pick(['Sterling silver', 'Oxidised silver']),
      net_weight_g: (rng) => oneDecimal(3 + rng.next() * 120),
    },
    title: (v, type) => `${text(v, 'brand')} ${text(v, 'metal')} ${type}`,
  },
  {
    path: 'jewellery/fashion-jewellery',
    share: 3,
    picture: 'ring',
    price: [199, 2999],
    weightKg: [0.02, 0.2],
    box: [12, 10, 4],
    types: ['Kundan Necklace Set', 'Choker Set', 'Maang Tikka', 'Bangle Set of 12', 'Hoop Earrings'],
    keywords: ['fashion jewellery', 'kundan', 'party', 'festive', 'gift'],
    values: {
      metal: (rng) => rng.pick(['Brass', 'Alloy']),
      net_weight_g: (rng) => oneDecimal(8 + rng.next() * 80),
    },
    title: (v, type) => `${text(v, 'brand')} Gold-plated ${type}`,
  },
  {
    path: 'sports-and-outdoors/cycling',
    share: 1.5,
    picture: 'dumbbell',
    price: [499, 34999],
    weightKg: [0.3, 16],
    box: [140, 25, 75],
    types: [
      'Mountain Bike 27.5T',
      'Road Bike 700C',
      'Kids Bicycle 16T',
      'Cycling Helmet',
      'Bike Lock',
      'Cycling Gloves',
    ],
    keywords: ['cycling', 'bicycle', 'helmet', 'outdoor', 'fitness'],
    values: { material: (rng) => [rng.pick(['Aluminium', 'Stainless steel', 'Plastic', 'Polyester'])] },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'sports-and-outdoors/fitness',
    share: 2,
    picture: 'dumbbell',
    price: [199, 9999],
    weightKg: [0.2, 20],
    box: [60, 20, 20],
    types: [
      'Yoga Mat 6 mm',
      'Adjustable Dumbbell Set',
      'Resistance Band Set',
      'Skipping Rope',
      'Kettlebell',
      'Gym Bag',
    ],
    keywords: ['fitness', 'yoga', 'gym', 'home workout', 'strength'],
    values: {
      material: (rng) => [rng.pick(['Plastic', 'Cast iron', 'Polyester', 'Leather'])],
      net_weight_g: (rng) => rng.pick([500, 1000, 2000, 5000, 8000, 10000]),
    },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'sports-and-outdoors/camping',
    share: 1,
    picture: 'lamp',
    price: [499, 12999],
    weightKg: [0.3, 5],
    box: [50, 25, 25],
    types: [
      '2-Person Dome Tent',
      'Sleeping Bag',
      'Trekking Backpack 50 L',
      'Camping Lantern',
      'Insulated Flask',
    ],
    keywords: ['camping', 'trekking', 'outdoor', 'waterproof', 'himalayan'],
    values: { material: (rng) => [rng.pick(['Polyester', 'Aluminium', 'Stainless steel'])] },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'stationery/notebooks',
    share: 1.5,
    picture: 'notebook',
    price: [79, 799],
    weightKg: [0.1, 0.7],
    box: [25, 18, 2],
    types: ['A5 Ruled Notebook', 'Spiral Sketchbook', 'Hardbound Journal', 'Exam Pad', 'Daily Planner'],
    keywords: ['notebook', 'journal', 'ruled', 'school', 'office'],
    values: { pages: (rng) => rng.pick([80, 120, 160, 192, 200, 240]) },
    title: (v, type) => `${text(v, 'brand')} ${type}, ${v.get('pages') ?? 160} Pages${inColour(v)}`,
  },
  {
    path: 'stationery/writing',
    share: 1.5,
    picture: 'notebook',
    price: [49, 2499],
    weightKg: [0.02, 0.3],
    box: [18, 8, 3],
    types: [
      'Gel Pen Set of 10',
      'Fountain Pen',
      'Highlighter Set',
      'Mechanical Pencil',
      'Calligraphy Pen Kit',
    ],
    keywords: ['pen', 'stationery', 'writing', 'school', 'gift'],
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
  {
    path: 'toys-and-baby/toys',
    share: 3,
    picture: 'dumbbell',
    price: [199, 4999],
    weightKg: [0.1, 2.5],
    box: [30, 25, 15],
    types: [
      'Wooden Building Blocks',
      'Remote Control Car',
      'Jigsaw Puzzle 500 Pieces',
      'Soft Toy Elephant',
      'Board Game',
      'Art and Craft Kit',
    ],
    keywords: ['toys', 'kids', 'learning', 'gift', 'wooden', 'educational'],
    values: { material: (rng) => [rng.pick(['Mango wood', 'Plastic', 'Cotton', 'Bamboo'])] },
    title: (v, type) =>
      `${text(v, 'brand')} ${type}, Ages ${text(v, 'age_group').replace(' years', '') || '3–5'}`,
  },
  {
    path: 'toys-and-baby/baby-care',
    share: 2,
    picture: 'jar',
    price: [199, 3999],
    weightKg: [0.1, 1.5],
    box: [25, 20, 10],
    types: ['Muslin Swaddle Set', 'Baby Massage Oil', 'Diaper Bag', 'Silicone Feeding Set', 'Baby Carrier'],
    keywords: ['baby', 'newborn', 'organic', 'gentle', 'gift'],
    values: {
      age_group: () => '0–2 years',
      material: (rng) => [rng.pick(['Cotton', 'Plastic', 'Polyester'])],
    },
    title: (v, type) => `${text(v, 'brand')} ${type}${inColour(v)}`,
  },
];

export const profileOf = new Map(PROFILES.map((profile) => [profile.path, profile]));

/** The leaves a generated catalogue spreads over, with their shares (those the database has). */
export function profilesFor(
  leaves: ReadonlyMap<string, SeedCategory>,
): { leaf: SeedCategory; profile: Profile }[] {
  return PROFILES.flatMap((profile) => {
    const leaf = leaves.get(profile.path);
    return leaf ? [{ leaf, profile }] : [];
  });
}

/** A spread of numbers: `min`…`max`, most of them low (a log-uniform draw). */
const logUniform = (rng: Rng, [min, max]: [number, number]) =>
  Math.exp(Math.log(min) + rng.next() * Math.log(max / min));
/** Prices as shops set them: ₹1,299, ₹15,999. */
const shopPrice = (rupees: number) =>
  rupees < 100 ? Math.round(rupees) : Math.max(99, Math.round(rupees / 100) * 100 - 1);

/** The usual spread of each attribute; a profile may give its own. */
function defaultValue(code: string, rng: Rng, profile: Profile, parent: string): Raw | undefined {
  switch (code) {
    case 'brand':
      return rng.pick(BRANDS[parent as keyof typeof BRANDS] ?? ['Generic']);
    case 'colour':
      return rng.weighted(COLOUR_SPREAD);
    case 'country_of_origin':
      return rng.weighted(
        parent === 'electronics' || parent === 'toys-and-baby' ? IMPORTED_ORIGIN : LOCAL_ORIGIN,
      );
    case 'material':
      return rng.some(profile.materials ?? ['Cotton'], 1, 2);
    case 'size':
      return rng.weighted([
        ['S', 14],
        ['M', 30],
        ['L', 28],
        ['XL', 16],
        ['XXL', 7],
        ['XS', 5],
      ]);
    case 'gender':
      return 'Unisex';
    case 'pattern':
      return rng.weighted([
        ['Solid', 45],
        ['Striped', 10],
        ['Checked', 10],
        ['Floral', 12],
        ['Block print', 10],
        ['Embroidered', 8],
        ['Ikat', 3],
        ['Bandhani', 2],
      ]);
    case 'occasion':
      return rng.some(['Festive', 'Wedding', 'Casual', 'Office', 'Party'], 1, 2);
    case 'metal':
      return rng.pick(['Brass', 'Alloy']);
    case 'age_group':
      return rng.weighted([
        ['0–2 years', 2],
        ['3–5 years', 4],
        ['6–8 years', 4],
        ['9–12 years', 3],
        ['12+ years', 2],
      ]);
    case 'skin_type':
      return rng.chance(0.5) ? ['All'] : rng.some(['Dry', 'Oily', 'Combination', 'Sensitive'], 1, 2);
    case 'veg':
      return rng.chance(0.92);
    case 'care_instructions':
      return rng.pick(CARE);
    case 'screen_size':
      return oneDecimal(5 + rng.next() * 2);
    case 'ram_gb':
      return rng.weighted([
        [4, 15],
        [6, 20],
        [8, 35],
        [12, 20],
        [16, 10],
      ]);
    case 'storage_gb':
      return rng.weighted([
        [64, 10],
        [128, 45],
        [256, 35],
        [512, 10],
      ]);
    case 'battery_mah':
      return rng.int(10, 60) * 100;
    case 'five_g':
      return rng.chance(0.5);
    case 'connectivity':
      return rng.some(['Bluetooth', 'Wi-Fi', 'USB-C', 'NFC', '3.5 mm jack', 'Wireless charging'], 1, 3);
    case 'waterproof':
      return rng.chance(0.45);
    case 'noise_cancelling':
      return rng.chance(0.3);
    case 'warranty_months':
      return rng.weighted([
        [6, 15],
        [12, 55],
        [24, 20],
        [36, 10],
      ]);
    case 'power_w':
      return rng.pick([5, 9, 12, 18, 40]);
    case 'capacity_l':
      return rng.pick([1, 2, 3, 5]);
    case 'net_quantity_ml':
      return rng.weighted([
        [30, 15],
        [50, 20],
        [100, 30],
        [150, 10],
        [200, 15],
        [250, 10],
      ]);
    case 'net_weight_g':
      return rng.pick([50, 100, 200, 250, 500]);
    case 'shelf_life_months':
      return rng.weighted([
        [6, 25],
        [9, 15],
        [12, 35],
        [18, 10],
        [24, 15],
      ]);
    case 'pages':
      return rng.pick([100, 160, 200]);
    case 'specs':
      return {
        modelYear: 2024 + rng.int(0, 2),
        inTheBox: rng.pick(['Device, cable, manual', 'Device, manual']),
      };
    case 'keywords':
      return rng.some(profile.keywords, 2, 4);
    case 'launch_date': {
      const day = new Date(Date.UTC(2023, 0, 1) + rng.int(0, 3 * 365) * 86_400_000);
      return day.toISOString();
    }
    default:
      // description is written with the title; media attributes hold uploads, never generated values.
      return undefined;
  }
}

/** Optional attributes most products fill (a product page without them looks unfinished). */
const OPTIONAL_FILL = 0.7;

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function descriptionOf(rng: Rng, parent: string, brand: string, type: string): string {
  const pool = FEATURES[parent] ?? FEATURES.handicrafts!;
  // In the pool's order: fewer distinct texts, so their search form is worked out once (below).
  const features = rng.some(pool, 3, 3).sort((a, b) => pool.indexOf(a) - pool.indexOf(b));
  return (
    `<p>The ${escapeHtml(type.toLowerCase())} from <strong>${escapeHtml(brand)}</strong>, made for everyday use.</p>` +
    `<ul>${features.map((feature) => `<li>${escapeHtml(feature)}</li>`).join('')}</ul>`
  );
}

/**
 * A product's search form, by attributeIndexOf. Rich text is most of its cost (it parses the HTML),
 * and generated descriptions repeat, so each description's part is worked out once per text.
 */
const richTextIndex = new Map<string, unknown>();
function indexOf(values: AttributeValue[], set: ReadonlyMap<number, AttributeDef>): Record<string, unknown> {
  const rich = values.filter((value) => set.get(value.keyId)?.dataType === 'WYSIWYG');
  const index = attributeIndexOf(
    values.filter((value) => !rich.includes(value)),
    set,
  );
  for (const value of rich) {
    const cacheKey = `${value.keyId}:${'value' in value ? String(value.value) : JSON.stringify(value.values)}`;
    if (!richTextIndex.has(cacheKey)) {
      if (richTextIndex.size > 100_000) richTextIndex.clear();
      richTextIndex.set(cacheKey, attributeIndexOf([value], set)[String(value.keyId)]);
    }
    index[String(value.keyId)] = richTextIndex.get(cacheKey);
  }
  return index;
}

const optionIds = new WeakMap<AttributeDef, Map<string, number>>();
/** An ENUMERATED attribute's option ids by label. */
function optionIdsOf(def: AttributeDef): Map<string, number> {
  let ids = optionIds.get(def);
  if (!ids) {
    ids = new Map([...def.options].map(([id, label]) => [label, id]));
    optionIds.set(def, ids);
  }
  return ids;
}

/** The stored SPEC §3 value of one attribute from a generated raw value. */
function storedValue(def: AttributeDef, raw: Raw): AttributeValue | null {
  const labels = Array.isArray(raw) ? raw : [raw];
  if (def.dataType === 'ENUMERATED') {
    const byLabel = optionIdsOf(def);
    const items = labels.flatMap((label) => {
      const valueId = byLabel.get(String(label));
      return valueId === undefined ? [] : [{ value: String(label), valueId }];
    });
    if (items.length === 0) return null;
    return def.attributeType === 'MULTI' ? { keyId: def.id, values: items } : { keyId: def.id, ...items[0]! };
  }
  if (def.attributeType === 'MULTI') return { keyId: def.id, values: labels.map((value) => ({ value })) };
  return { keyId: def.id, value: raw as AttributeScalar };
}

export interface GeneratedProduct {
  categoryId: string;
  title: string;
  sku: string;
  titleKey: string;
  skuKey: string;
  status: ProductStatus;
  statusReason: string | null;
  priceMinor: number;
  currency: string;
  inventory: number;
  weight: number | null;
  weightUnit: WeightUnit;
  dimensions: Dimensions | null;
  attributeValues: AttributeValue[];
  attrIndex: Record<string, unknown>;
  completeness: number;
  missingAttributes: number[];
  createdAt: Date;
  updatedAt: Date;
  /** The picture the demo shows for it. */
  picture: PictureKind;
}

export interface GenerateOptions {
  sku: string;
  /** A status to give it; drawn from productStatusSpread otherwise. */
  status?: ProductStatus;
  /** The seller's own brand: most of its products carry it (when the brand attribute offers it). */
  brand?: string;
  /** Whether it lacks required attributes; drawn by status (INCOMPLETE_SHARE) otherwise. */
  incomplete?: boolean;
  /** A title to keep (the demo seller's products have theirs); generated otherwise. */
  title?: string;
  /** The "now" dates are counted back from. */
  now: number;
  /** How far back products were created, in days. */
  ageDays?: number;
}

/** One product of `leaf`, reproducible from `rng`'s seed. */
export function generateProduct(
  rng: Rng,
  leaf: SeedCategory,
  profile: Profile,
  options: GenerateOptions,
): GeneratedProduct {
  const parent = leaf.path.split('/')[0]!;
  const type = rng.pick(profile.types);
  const status = options.status ?? rng.weighted(productStatusSpread);
  const raw: Values = new Map();
  for (const def of leaf.set.values()) {
    if (!def.isRequired && !rng.chance(OPTIONAL_FILL)) continue;
    const value = profile.values?.[def.code]?.(rng, type) ?? defaultValue(def.code, rng, profile, parent);
    // A zero means "does not apply" (a soundbar has no battery).
    if (value !== undefined && value !== 0) raw.set(def.code, value);
  }
  if (options.brand && rng.chance(0.75)) raw.set('brand', options.brand);
  const brand = text(raw, 'brand') || rng.pick(BRANDS[parent as keyof typeof BRANDS] ?? ['Generic']);
  if (!raw.has('brand')) raw.set('brand', brand);
  const title = options.title ?? profile.title(raw, type, rng).replace(/\s+/g, ' ').trim();
  const description = [...leaf.set.values()].find((def) => def.code === 'description');
  if (description) raw.set('description', descriptionOf(rng, parent, brand, type));

  // Incomplete products lack one or two required attributes (never the brand, which the title names).
  if (options.incomplete ?? rng.chance(INCOMPLETE_SHARE[status])) {
    const droppable = [...leaf.set.values()].filter((def) => def.isRequired && def.code !== 'brand');
    for (const def of rng.some(droppable, 1, 2)) raw.delete(def.code);
  }
  const attributeValues = [...leaf.set.values()].flatMap((def) => {
    const value = raw.get(def.code);
    const stored = value === undefined ? null : storedValue(def, value);
    return stored ? [stored] : [];
  });
  const { completeness, missingAttributes } = completenessOf(attributeValues, leaf.set);

  const rupees = shopPrice(logUniform(rng, profile.price));
  const foreign = rng.chance(0.04) ? rng.pick(OTHER_CURRENCIES) : null;
  const amount = foreign ? Math.max(1, Math.round(rupees * foreign[1] * 100) / 100) : rupees;
  const kg = logUniform(rng, profile.weightKg);
  const weightUnit: WeightUnit = rng.chance(0.03) ? 'lb' : kg < 1 ? 'g' : 'kg';
  const weight = rng.chance(0.08)
    ? null
    : weightUnit === 'g'
      ? Math.max(5, Math.round(kg * 200) * 5)
      : Math.round((weightUnit === 'lb' ? kg * 2.20462 : kg) * 100) / 100;
  const scale = 0.8 + rng.next() * 0.4;
  const dimensions: Dimensions | null = rng.chance(0.85)
    ? {
        length: Math.round(profile.box[0] * scale),
        width: Math.round(profile.box[1] * scale),
        height: Math.max(1, Math.round(profile.box[2] * scale)),
        unit: 'cm',
      }
    : null;
  const inventory =
    status === 'inactive' && rng.chance(0.5)
      ? 0
      : rng.chance(0.1)
        ? 0
        : Math.round(logUniform(rng, [1, 800]));

  const ageDays = options.ageDays ?? 730;
  const createdAt =
    options.now - Math.floor(ageDays * rng.next() ** 1.6 * 86_400_000) - rng.int(1, 86_400_000);
  const updatedAt = createdAt + Math.floor((options.now - createdAt) * rng.next() ** 0.7);
  return {
    categoryId: leaf.id,
    ...productKeys(title.slice(0, 200), options.sku),
    status,
    statusReason: status === 'rejected' ? rng.pick(REJECTION_REASONS) : null,
    priceMinor: Math.round(amount * 100),
    currency: foreign ? foreign[0] : 'INR',
    inventory,
    weight,
    weightUnit,
    dimensions,
    attributeValues,
    attrIndex: indexOf(attributeValues, leaf.set),
    completeness,
    missingAttributes,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
    picture: profile.picture,
  };
}

/** Leaves drawn by their profile's share. */
export function leafPicker(choices: { leaf: SeedCategory; profile: Profile }[]) {
  const entries = choices.map((choice) => [choice, choice.profile.share] as const);
  return (rng: Rng) => rng.weighted(entries);
}

export type { Profile as CategoryProfile };
