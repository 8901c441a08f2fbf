/** Courier divisor: cubic centimetres per chargeable kilogram. */
export const VOLUMETRIC_DIVISOR = 5000;

export type LengthUnit = 'cm' | 'm' | 'in';

/** Centimetres per unit; inches use the exact international inch. */
export const CM_PER_UNIT: Readonly<Record<LengthUnit, number>> = Object.freeze({ cm: 1, m: 100, in: 2.54 });

export interface ParcelDimensions {
  length: number;
  width: number;
  height: number;
  unit: LengthUnit;
}

/**
 * Volumetric (dimensional) weight in kg: L × W × H in cm / 5000 (or the settings' divisor). Not rounded — couriers round
 * differently (up to 0.5 kg, up to 1 kg…), so rounding belongs to the caller.
 *
 * Zero is allowed (a flat item or an unfilled form yields 0 kg).
 * @throws RangeError for negative, NaN or infinite dimensions, or an unknown unit. Throwing rather
 * than returning null because a bad dimension is a programming/validation error upstream, and a
 * silent null would too easily be billed as 0 kg.
 */
export function volumetricWeight(
  { length, width, height, unit }: ParcelDimensions,
  /** The shipping settings' divisor (cm³ per kg); couriers use 5000, some 4000 or 6000. */
  divisor = VOLUMETRIC_DIVISOR,
): number {
  // Checked at runtime as well because dimensions often arrive from untyped JSON.
  if (!Object.hasOwn(CM_PER_UNIT, unit)) {
    throw new RangeError(`volumetricWeight: unknown unit ${JSON.stringify(unit)}`);
  }
  for (const [name, value] of [
    ['length', length],
    ['width', width],
    ['height', height],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`volumetricWeight: ${name} must be a finite number ≥ 0, got ${value}`);
    }
  }
  if (!Number.isFinite(divisor) || divisor <= 0) {
    throw new RangeError(`volumetricWeight: the divisor must be a finite number > 0, got ${divisor}`);
  }
  const factor = CM_PER_UNIT[unit];
  return (length * factor * (width * factor) * (height * factor)) / divisor;
}
