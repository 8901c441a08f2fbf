/**
 * Tax identifiers of the company settings, checked by their country's format before anything prints
 * them on an invoice: India's GSTIN with its check character, the EU's VAT numbers (VIES formats,
 * including Greece's "EL" prefix and Northern Ireland's "XI"), the UK's, and a plain shape elsewhere.
 * A format check, not a registry lookup: VIES and the GST portal are outside an offline product.
 */

const GSTIN_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** State code, PAN (5 letters, 4 digits, a letter), entity number, "Z" by default, check character. */
const GSTIN_SHAPE = /^(\d{2})[A-Z]{5}\d{4}[A-Z][1-9A-Z][A-Z0-9][0-9A-Z]$/;
/** State and union territory codes 01–38, 97 (other territory) and 99 (centre jurisdiction). */
const isGstStateCode = (code: number) => (code >= 1 && code <= 38) || code === 97 || code === 99;

/** The GSTIN's 15th character: a mod-36 sum of its first 14, every second one doubled. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARACTERS.indexOf(first14[i] as string) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARACTERS[(36 - (sum % 36)) % 36] as string;
}

/** VAT numbers after the country prefix (the EU's VIES formats; the UK's own). */
const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** The VAT prefix of an ISO country: Greece's is EL. */
const vatPrefixOf = (country: string) => (country === 'GR' ? 'EL' : country);

/** Upper case, without the spaces, dots and hyphens people type in them. */
export function normaliseTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

export type TaxIdCheck =
  | { ok: true; normalised: string; kind: 'GSTIN' | 'VAT' | 'other' }
  | { ok: false; message: string };

/** Whether `value` is a well-formed tax id for a company in `country` (ISO 3166 alpha-2). */
export function checkTaxId(country: string, value: string): TaxIdCheck {
  const code = country.toUpperCase();
  const id = normaliseTaxId(value);
  if (id === '') return { ok: false, message: 'Enter the tax id.' };
  if (code === 'IN') return checkGstin(id);
  const prefix = vatPrefixOf(code);
  const format = VAT_FORMATS[prefix];
  if (format) {
    // Written with or without the country prefix; stored with it, as VIES and invoices show it.
    const body = id.startsWith(prefix) ? id.slice(prefix.length) : id;
    if (!format.test(body)) {
      return {
        ok: false,
        message: `This is not a valid ${prefix} VAT number (e.g. ${VAT_EXAMPLES[prefix] ?? prefix}).`,
      };
    }
    return { ok: true, normalised: `${prefix}${body}`, kind: 'VAT' };
  }
  if (!/^[A-Z0-9/]{4,20}$/.test(id)) {
    return { ok: false, message: 'A tax id has 4 to 20 letters, digits or "/".' };
  }
  return { ok: true, normalised: id, kind: 'other' };
}

function checkGstin(id: string): TaxIdCheck {
  const shape = GSTIN_SHAPE.exec(id);
  if (!shape) {
    return {
      ok: false,
      message:
        'A GSTIN has 15 characters: the state code, the PAN, the entity number, Z and a check character.',
    };
  }
  if (!isGstStateCode(Number(shape[1])))
    return { ok: false, message: `${shape[1]} is not a GST state code.` };
  if (gstinCheckCharacter(id.slice(0, 14)) !== id[14]) {
    return { ok: false, message: 'This GSTIN has a typing error: its check character does not match.' };
  }
  return { ok: true, normalised: id, kind: 'GSTIN' };
}

const VAT_EXAMPLES: Readonly<Record<string, string>> = {
  DE: 'DE123456789',
  FR: 'FRXX123456789',
  NL: 'NL123456789B01',
  IT: 'IT12345678901',
  ES: 'ESX1234567X',
  GB: 'GB123456789',
  EL: 'EL123456789',
};

/**
 * The company settings' tax id problem, or null: an empty id is allowed (not every seller has one); a
 * set one is checked against the company address's country, which must then be chosen.
 */
export function companyTaxIdProblem(company: { taxId: string; address: { country: string } }): string | null {
  if (company.taxId.trim() === '') return null;
  if (company.address.country === '') return "Choose the company's country so its tax id can be checked.";
  const check = checkTaxId(company.address.country, company.taxId);
  return check.ok ? null : check.message;
}
