import type { Tx } from '../db/client';
import { type Address, sellers } from '../db/schema';

const names = [
  'Aurora Textiles',
  'Banyan Crafts',
  'Cedar & Co',
  'Deccan Spices',
  'Everleaf Organics',
  'Fable Footwear',
  'Ganga Handloom',
  'Harbor Home',
  'Indigo Prints',
  'Jaipur Gems',
  'Kiran Electronics',
  'Lotus Ceramics',
  'Monsoon Tea',
  'Nilgiri Naturals',
  'Oak Street Toys',
  'Peacock Apparel',
  'Quartz Kitchen',
  'Riverstone Leather',
  'Saffron Foods',
  'Teal Stationery',
  'Umber Furniture',
  'Velvet Beauty',
  'Westwind Sports',
  'Yarn & Loom',
  'Zenith Audio',
  'Amber Lighting',
  'Blue Pottery House',
  'Coral Jewels',
  'Dune Outdoor',
  'Emerald Gardens',
  'Fern Baby',
  'Granite Tools',
  'Horizon Bags',
  'Ivory Linen',
  'Juniper Pets',
  'Kestrel Bikes',
];
const cities: [string, string, string][] = [
  ['Mumbai', 'Maharashtra', '400001'],
  ['Bengaluru', 'Karnataka', '560001'],
  ['Jaipur', 'Rajasthan', '302001'],
  ['Kochi', 'Kerala', '682001'],
  ['Pune', 'Maharashtra', '411001'],
  ['Chennai', 'Tamil Nadu', '600001'],
];

/** Which tab each generated seller lands in, cycling so that all four tabs have rows (SPEC §4). */
const tabStates = [
  { isActive: true, isEmailVerified: true, isKycDone: true }, // Active Sellers
  { isActive: false, isEmailVerified: false, isKycDone: false }, // Pending Verification
  { isActive: false, isEmailVerified: true, isKycDone: false }, // Pending KYC
  { isActive: false, isEmailVerified: true, isKycDone: true }, // Inactive Sellers
];

function address(fullName: string, email: string, index: number): Address {
  const [city, state, zipcode] = cities[index % cities.length] ?? cities[0]!;
  return {
    fullName,
    email,
    addressLine1: `${12 + index} Market Road`,
    addressLine2: '',
    city,
    state,
    country: 'IN',
    zipcode,
  };
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** What the admin wrote when rejecting the KYC papers of kyc@demo.local; the seller sees it as it is. */
export const DEMO_KYC_REJECTION_REASON = 'The GST certificate is unreadable. Upload a clear scan.';

/** The demo sellers' ids, passed on to the seeds that give them users, subscriptions and activity. */
export interface DemoSellerIds {
  demoSellerId: string;
  blockedSellerId: string;
  kycSellerId: string;
}

export async function seedSellers(tx: Tx): Promise<DemoSellerIds> {
  const [demo] = await tx
    .insert(sellers)
    .values({
      sellerCode: 'SEL-0001',
      sellerName: 'Demo Seller Store',
      email: 'seller@demo.local',
      phone: '+91 98200 00001',
      address: address('Demo Seller', 'seller@demo.local', 0),
      isActive: true,
      isEmailVerified: true,
      isKycDone: true,
      isNewSeller: false,
      blocked: false,
      createdAt: daysAgo(320),
    })
    .returning({ id: sellers.id });
  const [blocked] = await tx
    .insert(sellers)
    .values({
      sellerCode: 'SEL-0002',
      sellerName: 'Lapsed Goods Co',
      email: 'blocked@demo.local',
      phone: '+91 98200 00002',
      address: address('Blocked Seller', 'blocked@demo.local', 1),
      isActive: true,
      isEmailVerified: true,
      isKycDone: true,
      isNewSeller: false,
      blocked: true,
      createdAt: daysAgo(290),
    })
    .returning({ id: sellers.id });

  await tx.insert(sellers).values(
    names.map((sellerName, index) => {
      const email = `${sellerName.toLowerCase().replace(/[^a-z]+/g, '.')}@sellers.demo.local`;
      return {
        sellerCode: `SEL-${String(index + 3).padStart(4, '0')}`,
        sellerName,
        email,
        phone: `+91 98${String(2000_0003 + index).slice(0, 3)} ${String(10_000 + index * 7).slice(0, 5)}`,
        address: address(sellerName, email, index),
        ...tabStates[index % tabStates.length]!,
        isNewSeller: index % 5 === 0,
        blocked: false,
        createdAt: daysAgo(5 + ((index * 11) % 360)),
      };
    }),
  );
  // Coded after the generated sellers so their codes (and the seeds keyed on their order) stay as they were.
  const [kyc] = await tx
    .insert(sellers)
    .values({
      sellerCode: `SEL-${String(names.length + 3).padStart(4, '0')}`,
      sellerName: 'Kesar Crafts',
      email: 'kyc@demo.local',
      phone: '+91 98200 00003',
      address: address('Kesar Crafts', 'kyc@demo.local', 2),
      // Pending KYC: e-mail verified, papers rejected once; not blocked, so the seller can fix them.
      isActive: false,
      isEmailVerified: true,
      isKycDone: false,
      isNewSeller: false,
      blocked: false,
      kycRejectionReason: DEMO_KYC_REJECTION_REASON,
      createdAt: daysAgo(12),
    })
    .returning({ id: sellers.id });
  return { demoSellerId: demo!.id, blockedSellerId: blocked!.id, kycSellerId: kyc!.id };
}
