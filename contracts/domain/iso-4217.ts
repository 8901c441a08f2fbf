/**
 * ISO 4217 currency codes and their minor units, as the `currency-codes` package lists them (ISO's
 * list of 2024-06-25). A table of its own rather than the package at run time: the package carries
 * every currency's name and countries (~28 KB) and is CommonJS, while the browser only needs the codes
 * and the digits. iso-4217.test.ts checks that this table still equals the package's.
 */

const CODES = [
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF',
  'BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF',
  'CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB',
  'EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR',
  'ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD',
  'KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR',
  'MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK',
  'PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP',
  'SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD',
  'TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG',
  'XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XTS XUA XXX YER',
  'ZAR ZMW ZWG',
].join(' ');

/** Minor-unit digits of the codes that do not have two. */
const NOT_TWO: Readonly<Record<number, string>> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XAG XAU XBA XBB XBC XBD XDR XOF XPD XPF XPT XSU XTS XUA XXX',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};

/** Every ISO 4217 code, sorted. */
export const iso4217Codes: readonly string[] = Object.freeze(CODES.split(' '));

const known = new Set(iso4217Codes);
const digitsOf = new Map<string, number>();
for (const [digits, codes] of Object.entries(NOT_TWO)) {
  for (const code of codes.split(' ')) digitsOf.set(code, Number(digits));
}

/** Whether `code` is an ISO 4217 code, exactly (upper case). */
export function isIso4217Code(code: string): boolean {
  return known.has(code);
}

/** ISO 4217 minor-unit digits (JPY 0, KWD 3, CLF 4); undefined for a code ISO does not list. */
export function iso4217Digits(code: string): number | undefined {
  if (!known.has(code)) return undefined;
  return digitsOf.get(code) ?? 2;
}
