// Colour contrast as WCAG 2.2 defines it (relative luminance, contrast ratio), for colours a seller
// picks (Settings → Website's widget colours): the chat page and the settings preview choose readable
// text with `readableTextOn`, so a pale button with white text still reads.

/** WCAG 2.2 AA for normal text (1.4.3). */
export const AA_NORMAL_TEXT = 4.5;

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** Whether a value is a colour written #rrggbb (the form the settings store). */
export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR.test(value);
}

/**
 * The relative luminance of an sRGB colour #rrggbb: 0 for black, 1 for white.
 * @throws RangeError for anything else: callers check user input with `isHexColour` first.
 */
export function relativeLuminance(hex: string): number {
  if (!isHexColour(hex)) throw new RangeError(`Not a #rrggbb colour: ${hex}`);
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 (none) to 21 (black on white); the order does not matter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour to draw on `background`: `preferred` when it reads at AA (4.5:1), otherwise black or
 * white, whichever contrasts more (one of them always reaches 4.5:1).
 */
export function readableTextOn(background: string, preferred: string): string {
  if (contrastRatio(preferred, background) >= AA_NORMAL_TEXT) return preferred;
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}
