/**
 * ISO 3166-1 alpha-2 countries with English names from the ICU data Node ships, so the list needs no
 * hand-kept table. Region codes ICU knows that are not countries (EU, UN, pseudo-locales…) are dropped,
 * and so are retired codes ICU maps to today's (FX → FR, DD → DE, UK → GB…): one entry per country.
 */
const notCountries = new Set(['AC', 'CP', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

let cached: { code: string; name: string }[] | undefined;

export function countries(): { code: string; name: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const list: { code: string; name: string }[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (notCountries.has(code)) continue;
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      const name = names.of(code);
      if (name && name !== code) list.push({ code, name });
    }
  }
  cached = list.sort((x, y) => x.name.localeCompare(y.name));
  return cached;
}
