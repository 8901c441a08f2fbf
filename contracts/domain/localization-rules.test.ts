import { describe, expect, it } from 'vitest';
import { settingsDefaults } from '../settings';
import { isFormatLocale, isLanguageCode, isTimeZone, localizationProblems } from './localization-rules';

const valid = () => settingsDefaults().localization;
const fields = (values: Parameters<typeof localizationProblems>[0]) =>
  localizationProblems(values).map((problem) => problem.field);

describe('localizationProblems', () => {
  it('finds none in the defaults (SPEC §9: IN, EN, INR)', () => {
    expect(localizationProblems(valid())).toEqual([]);
  });

  it('refuses an unknown country', () => {
    expect(fields({ ...valid(), defaultCountry: 'ZZ' })).toEqual(['defaultCountry']);
  });

  it('refuses currencies that are not ISO 4217 codes, naming them', () => {
    const problems = localizationProblems({ ...valid(), currencies: ['INR', 'ABC', 'XYZ'] });
    expect(problems).toEqual([{ field: 'currencies', message: 'Not ISO 4217 currency codes: ABC, XYZ.' }]);
  });

  it('refuses a currency offered twice', () => {
    expect(fields({ ...valid(), currencies: ['INR', 'USD', 'INR'] })).toEqual(['currencies']);
  });

  it('wants the default currency among those offered, and known', () => {
    expect(localizationProblems({ ...valid(), currencies: ['USD'], defaultCurrency: 'INR' })).toEqual([
      { field: 'defaultCurrency', message: 'The default currency must be one of the currencies offered.' },
    ]);
    expect(fields({ ...valid(), defaultCurrency: 'ABC' })).toEqual(['defaultCurrency']);
  });

  it('wants the default language among those offered, and languages known', () => {
    expect(fields({ ...valid(), languages: ['DE'], defaultLanguage: 'EN' })).toEqual(['defaultLanguage']);
    expect(fields({ ...valid(), languages: ['EN', 'QQ'] })).toEqual(['languages']);
  });

  it('refuses an unknown time zone and a locale nothing can be formatted in', () => {
    expect(fields({ ...valid(), timeZone: 'Mars/Olympus' })).toEqual(['timeZone']);
    expect(fields({ ...valid(), locale: 'not a locale' })).toEqual(['locale']);
    expect(fields({ ...valid(), locale: 'xx-YY' })).toEqual(['locale']);
  });

  it('accepts other valid choices', () => {
    expect(
      localizationProblems({
        ...valid(),
        defaultCountry: 'JP',
        currencies: ['JPY', 'KWD'],
        defaultCurrency: 'JPY',
        languages: ['JA', 'EN'],
        defaultLanguage: 'JA',
        timeZone: 'Asia/Tokyo',
        locale: 'ja-JP',
      }),
    ).toEqual([]);
  });
});

describe('the single checks', () => {
  it('know languages, time zones and locales', () => {
    expect(isLanguageCode('HI')).toBe(true);
    expect(isLanguageCode('QQ')).toBe(false);
    expect(isLanguageCode('ENG')).toBe(false);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('')).toBe(false);
    expect(isFormatLocale('en-IN')).toBe(true);
    expect(isFormatLocale('de')).toBe(true);
  });
});
