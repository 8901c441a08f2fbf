import { describe, expect, it } from 'vitest';
import { sectionFields, sellerSections, settingsDefaults, storedSections, weekdaysFrom } from './settings';

describe('settings defaults', () => {
  it('are SPEC §9 IN, EN, INR, and every default passes its own field schema', () => {
    const defaults = settingsDefaults();
    expect(defaults.localization).toMatchObject({
      defaultCountry: 'IN',
      defaultLanguage: 'EN',
      defaultCurrency: 'INR',
    });
    for (const section of storedSections) {
      for (const [field, definition] of Object.entries(sectionFields[section])) {
        const value = (defaults[section] as Record<string, unknown>)[field];
        expect(definition.schema.safeParse(value).success, `${section}.${field}`).toBe(true);
      }
    }
  });

  it("follow the marketplace's country: April and Rule 46 in India, January and the EU series elsewhere", () => {
    expect(settingsDefaults('IN').company).toMatchObject({
      fiscalYearStartMonth: 4,
      seriesPreset: 'india',
      invoiceSeries: 'INV/{FY2}/{seq:05}',
    });
    expect(settingsDefaults('DE').company).toMatchObject({
      fiscalYearStartMonth: 1,
      seriesPreset: 'eu',
      invoiceSeries: 'INV-{YYYY}-{seq:06}',
    });
  });

  it("let sellers into their shop's sections only", () => {
    expect(sellerSections).toEqual(['localization', 'shipping', 'website', 'company', 'content']);
  });
});

describe('the first day of the week', () => {
  it('starts the week where Localization says', () => {
    expect(weekdaysFrom('monday')[0]).toBe('monday');
    expect(weekdaysFrom('sunday')).toEqual([
      'sunday',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
    ]);
    expect(weekdaysFrom('saturday').slice(0, 2)).toEqual(['saturday', 'sunday']);
  });
});
