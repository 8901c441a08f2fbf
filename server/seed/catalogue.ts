import { and, asc, eq, notInArray } from 'drizzle-orm';
import { slugify } from '../../contracts/categories';
import type { Tx } from '../db/client';
import { type Address, categories, customers, sellers } from '../db/schema';

/** Top-level categories with their subcategories, in the order the storefront shows them. */
const tree: { name: string; description: string; isActive?: boolean; children: string[] }[] = [
  {
    name: 'Apparel',
    description: 'Clothing for every day and every occasion.',
    children: ['Men', 'Women', 'Kids', 'Ethnic Wear'],
  },
  {
    name: 'Home & Kitchen',
    description: 'Cookware, decor and furniture.',
    children: ['Cookware', 'Decor', 'Furniture', 'Lighting'],
  },
  {
    name: 'Electronics',
    description: 'Audio, gadgets and accessories.',
    children: ['Audio', 'Accessories', 'Wearables'],
  },
  {
    name: 'Beauty & Personal Care',
    description: 'Skincare, makeup and grooming.',
    children: ['Skincare', 'Makeup', 'Hair Care'],
  },
  {
    name: 'Food & Beverages',
    description: 'Teas, spices and pantry staples.',
    children: ['Tea & Coffee', 'Spices', 'Snacks'],
  },
  {
    name: 'Handicrafts',
    description: 'Pottery, handloom and handmade goods.',
    children: ['Pottery', 'Handloom', 'Woodwork'],
  },
  {
    name: 'Jewellery',
    description: 'Gold, silver and fashion jewellery.',
    children: ['Gold', 'Silver', 'Fashion Jewellery'],
  },
  {
    name: 'Sports & Outdoors',
    description: 'Gear for the field, the trail and the gym.',
    children: ['Cycling', 'Fitness', 'Camping'],
  },
  { name: 'Stationery', description: 'Paper, pens and office supplies.', children: ['Notebooks', 'Writing'] },
  { name: 'Toys & Baby', description: 'Toys, games and baby care.', children: ['Toys', 'Baby Care'] },
  { name: 'Pet Supplies', description: 'Food and accessories for pets.', children: [] },
  {
    name: 'Seasonal',
    description: 'Festive collections, shown around the holidays.',
    isActive: false,
    children: ['Diwali', 'Christmas'],
  },
];

const firstNames = [
  'Aarav',
  'Diya',
  'Ishaan',
  'Kavya',
  'Rohan',
  'Meera',
  'Vikram',
  'Ananya',
  'Arjun',
  'Priya',
  'Karan',
  'Neha',
  'Rahul',
  'Sneha',
  'Aditya',
  'Pooja',
  'Nikhil',
  'Riya',
  'Siddharth',
  'Tara',
];
const lastNames = ['Sharma', 'Iyer', 'Patel', 'Nair', 'Reddy', 'Gupta', 'Menon', 'Singh', 'Das', 'Joshi'];
const cities: [string, string, string][] = [
  ['Mumbai', 'Maharashtra', '400050'],
  ['Bengaluru', 'Karnataka', '560034'],
  ['Delhi', 'Delhi', '110016'],
  ['Hyderabad', 'Telangana', '500081'],
  ['Kolkata', 'West Bengal', '700019'],
];

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

function customerAddress(fullName: string, email: string, index: number): Address {
  const [city, state, zipcode] = cities[index % cities.length] ?? cities[0]!;
  return {
    fullName,
    email,
    addressLine1: `${40 + index} Park Street`,
    addressLine2: index % 3 === 0 ? `Flat ${100 + index}` : '',
    city,
    state,
    country: 'IN',
    zipcode,
  };
}

/**
 * The demo catalogue: categories with subcategories (one inactive), and customers: twelve of the demo
 * seller's (more than one page), a few of the blocked seller's and of other active sellers, and some who
 * registered with the marketplace directly (no seller). Some customers are inactive.
 */
export async function seedCatalogue(tx: Tx, ids: { demoSellerId: string; blockedSellerId: string }) {
  for (const [index, node] of tree.entries()) {
    const [parent] = await tx
      .insert(categories)
      .values({
        name: node.name,
        slug: slugify(node.name),
        description: node.description,
        isActive: node.isActive ?? true,
        sortOrder: (index + 1) * 10,
      })
      .returning({ id: categories.id });
    if (node.children.length) {
      await tx.insert(categories).values(
        node.children.map((name, childIndex) => ({
          name,
          slug: slugify(name),
          parentId: parent!.id,
          isActive: node.isActive ?? true,
          sortOrder: (childIndex + 1) * 10,
        })),
      );
    }
  }

  const others = await tx
    .select({ id: sellers.id })
    .from(sellers)
    .where(and(eq(sellers.isActive, true), notInArray(sellers.id, [ids.demoSellerId, ids.blockedSellerId])))
    .orderBy(asc(sellers.sellerCode))
    .limit(4);
  const sellerOf = (index: number): string | null => {
    if (index < 12) return ids.demoSellerId;
    if (index < 16) return ids.blockedSellerId;
    if (index < 24) return others[index % Math.max(others.length, 1)]?.id ?? null;
    return null;
  };

  const rows = Array.from({ length: 30 }, (_, index) => {
    const firstName = firstNames[index % firstNames.length]!;
    const lastName = lastNames[(index * 3) % lastNames.length]!;
    const email = `${firstName}.${lastName}${index + 1}@customers.demo.local`.toLowerCase();
    return {
      firstName,
      lastName,
      email,
      phone: `+91 97${String(100 + index).padStart(3, '0')} ${String(40_000 + index * 37).slice(0, 5)}`,
      address: index % 5 === 4 ? null : customerAddress(`${firstName} ${lastName}`, email, index),
      sellerId: sellerOf(index),
      isActive: index % 7 !== 6,
      createdAt: daysAgo(3 + index * 6),
      updatedAt: daysAgo(3 + index * 6),
    };
  });
  await tx.insert(customers).values(rows);
}
