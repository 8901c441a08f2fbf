/**
 * Shipping by chargeable weight (../shared/ANCHORS.md §12): zones of countries, each with rates by weight
 * band; chargeable weight = the greater of the actual and the volumetric weight (SPEC §9's divisor and
 * units, or the settings' own divisor). A seller's own zones are looked up before the marketplace's, the
 * way Marketplacer lets sellers own their rules. The shipping settings store zones in this shape; the
 * settings page's calculator and the orders module quote with `quoteShipping`.
 *
 * Weights are kilograms; a band holds weights from `fromKg` (inclusive) up to `toKg` (exclusive, null
 * for "and above"). Rates are integer minor units of the zone's currency, never floating point.
 */
import { z } from 'zod';
import { type ParcelDimensions, VOLUMETRIC_DIVISOR, volumetricWeight } from './volumetric-weight';

export const weightBandSchema = z
  .object({
    fromKg: z.number().min(0, 'A band starts at 0 kg or more.'),
    toKg: z.number().positive().nullable(),
    rateMinor: z
      .number()
      .int('A rate is a whole number of minor units.')
      .min(0, 'A rate may not be negative.'),
  })
  .refine((band) => band.toKg === null || band.toKg > band.fromKg, {
    message: 'A band must end above where it starts.',
    path: ['toKg'],
  });

const countryCode = z.string().regex(/^[A-Z]{2}$/, 'Countries are ISO 3166 alpha-2 codes, e.g. IN.');

export const shippingZoneSchema = z
  .object({
    id: z.string().min(1).max(64),
    name: z.string().trim().min(1, 'Name the zone.').max(80),
    countries: z.array(countryCode).min(1, 'A zone covers at least one country.').max(300),
    currency: z.string().regex(/^[A-Z]{3}$/, 'A currency is an ISO 4217 code, e.g. INR.'),
    bands: z.array(weightBandSchema).min(1, 'A zone needs at least one weight band.').max(100),
  })
  .superRefine((zone, context) => {
    for (const problem of bandOverlaps(zone.bands)) {
      context.addIssue({ code: 'custom', message: problem, path: ['bands'] });
    }
  });

export type WeightBand = z.infer<typeof weightBandSchema>;
export type ShippingZone = z.infer<typeof shippingZoneSchema>;

/** One scope's zones: no country in two of them, so a parcel's zone is never a guess. */
export const shippingZonesSchema = z
  .array(shippingZoneSchema)
  .max(200)
  .superRefine((zones, context) => {
    const owner = new Map<string, string>();
    zones.forEach((zone, index) => {
      for (const country of zone.countries) {
        const other = owner.get(country);
        if (other !== undefined && other !== zone.name) {
          context.addIssue({
            code: 'custom',
            message: `${country} is in two zones: ${other} and ${zone.name}.`,
            path: [index, 'countries'],
          });
        }
        owner.set(country, zone.name);
      }
    });
    const ids = zones.map((zone) => zone.id);
    if (new Set(ids).size !== ids.length) context.addIssue({ code: 'custom', message: 'Zone ids repeat.' });
  });

const bandLabel = (band: WeightBand) => `${band.fromKg}–${band.toKg ?? '∞'} kg`;

/** The overlaps among `bands`, as sentences ("2–5 kg overlaps 4–10 kg."); gaps are allowed. */
export function bandOverlaps(bands: readonly WeightBand[]): string[] {
  const sorted = [...bands].sort((a, b) => a.fromKg - b.fromKg);
  const problems: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1] as WeightBand;
    const band = sorted[i] as WeightBand;
    if (before.toKg === null || before.toKg > band.fromKg) {
      problems.push(`${bandLabel(before)} overlaps ${bandLabel(band)}.`);
    }
  }
  return problems;
}

export interface Parcel {
  /** ISO 3166 alpha-2 of the destination. */
  country: string;
  actualKg: number;
  /** Without dimensions, the actual weight is the chargeable weight. */
  dimensions?: ParcelDimensions;
}

export interface ShippingRules {
  /** The seller's own zones, looked up first; empty when the seller inherits the marketplace's. */
  sellerZones: readonly ShippingZone[];
  marketplaceZones: readonly ShippingZone[];
  volumetricDivisor?: number;
}

export type ShippingQuote =
  | {
      ok: true;
      chargeableKg: number;
      volumetricKg: number;
      zone: ShippingZone;
      band: WeightBand;
      /** Whose zone priced it: the seller's own or the inherited marketplace's. */
      scope: 'seller' | 'marketplace';
      rateMinor: number;
      currency: string;
    }
  | { ok: false; chargeableKg: number; volumetricKg: number; reason: string };

/** The greater of the actual and the volumetric weight, with both. */
export function chargeableWeight(
  parcel: Pick<Parcel, 'actualKg' | 'dimensions'>,
  divisor = VOLUMETRIC_DIVISOR,
): { chargeableKg: number; volumetricKg: number } {
  if (!Number.isFinite(parcel.actualKg) || parcel.actualKg < 0) {
    throw new RangeError(`chargeableWeight: the weight must be a finite number ≥ 0, got ${parcel.actualKg}`);
  }
  const volumetricKg = parcel.dimensions ? volumetricWeight(parcel.dimensions, divisor) : 0;
  return { chargeableKg: Math.max(parcel.actualKg, volumetricKg), volumetricKg };
}

/** The rate for a parcel: its zone (the seller's first), the band its chargeable weight falls in. */
export function quoteShipping(parcel: Parcel, rules: ShippingRules): ShippingQuote {
  const weights = chargeableWeight(parcel, rules.volumetricDivisor);
  const country = parcel.country.toUpperCase();
  const found =
    zoneFor(rules.sellerZones, country, 'seller') ?? zoneFor(rules.marketplaceZones, country, 'marketplace');
  if (!found) return { ok: false, ...weights, reason: `No shipping zone covers ${country}.` };
  const band = found.zone.bands.find(
    (candidate) =>
      weights.chargeableKg >= candidate.fromKg &&
      (candidate.toKg === null || weights.chargeableKg < candidate.toKg),
  );
  if (!band) {
    return {
      ok: false,
      ...weights,
      reason: `${found.zone.name} has no rate for ${formatKg(weights.chargeableKg)} kg.`,
    };
  }
  return {
    ok: true,
    ...weights,
    zone: found.zone,
    band,
    scope: found.scope,
    rateMinor: band.rateMinor,
    currency: found.zone.currency,
  };
}

function zoneFor(zones: readonly ShippingZone[], country: string, scope: 'seller' | 'marketplace') {
  const zone = zones.find((candidate) => candidate.countries.includes(country));
  return zone ? { zone, scope } : undefined;
}

/** Up to three decimals, without trailing zeros: 12, 3.277. */
const formatKg = (kg: number) => String(Math.round(kg * 1000) / 1000);

/** One scope's shipping settings, as the settings store keeps them. */
export interface ShippingSettings {
  divisor: number;
  zones: readonly ShippingZone[];
}

/**
 * The rules a parcel is quoted with: the seller's own zones only when the seller has set zones of their
 * own (`sellerOverridesZones`; inherited zones are the marketplace's, not a second copy of them), and the
 * divisor of the scope that ships it.
 */
export function shippingRulesFor(
  marketplace: ShippingSettings,
  seller?: ShippingSettings & { overridesZones: boolean },
): ShippingRules {
  return {
    sellerZones: seller?.overridesZones ? seller.zones : [],
    marketplaceZones: marketplace.zones,
    volumetricDivisor: (seller ?? marketplace).divisor,
  };
}
