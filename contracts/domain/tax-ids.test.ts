import { describe, expect, it } from 'vitest';
import { checkTaxId, companyTaxIdProblem, gstinCheckCharacter, normaliseTaxId } from './tax-ids';

describe('GSTIN (India)', () => {
  it('accepts well-formed GSTINs whose check character matches', () => {
    expect(checkTaxId('IN', '27AAPFU0939F1ZV')).toEqual({
      ok: true,
      normalised: '27AAPFU0939F1ZV',
      kind: 'GSTIN',
    });
    expect(checkTaxId('in', ' 29aagcb7383j1z4 ')).toEqual({
      ok: true,
      normalised: '29AAGCB7383J1Z4',
      kind: 'GSTIN',
    });
  });

  it('computes the check character', () => {
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    expect(gstinCheckCharacter('29AAGCB7383J1Z')).toBe('4');
  });

  it('catches a typing error: one changed character or two swapped', () => {
    expect(checkTaxId('IN', '27AAPFU0939F1ZW')).toEqual({
      ok: false,
      message: 'This GSTIN has a typing error: its check character does not match.',
    });
    expect(checkTaxId('IN', '27AAPFU0399F1ZV').ok).toBe(false);
  });

  it('refuses a wrong shape or state code', () => {
    expect(checkTaxId('IN', '27AAPFU0939F1Z')).toMatchObject({ ok: false });
    expect(checkTaxId('IN', '27AAPF00939F1ZV')).toMatchObject({ ok: false });
    expect(checkTaxId('IN', `45AAPFU0939F1Z${gstinCheckCharacter('45AAPFU0939F1Z')}`)).toEqual({
      ok: false,
      message: '45 is not a GST state code.',
    });
    expect(checkTaxId('IN', '')).toEqual({ ok: false, message: 'Enter the tax id.' });
  });
});

describe('VAT numbers', () => {
  it('accepts each country’s format, with or without its prefix, and stores the prefix', () => {
    expect(checkTaxId('DE', 'DE 123 456 789')).toEqual({ ok: true, normalised: 'DE123456789', kind: 'VAT' });
    expect(checkTaxId('DE', '123456789')).toEqual({ ok: true, normalised: 'DE123456789', kind: 'VAT' });
    expect(checkTaxId('NL', 'nl123456789b01')).toMatchObject({ ok: true, normalised: 'NL123456789B01' });
    expect(checkTaxId('AT', 'ATU12345678')).toMatchObject({ ok: true });
    expect(checkTaxId('FR', 'FR4A123456789')).toMatchObject({ ok: true });
    expect(checkTaxId('IE', 'IE1234567WA')).toMatchObject({ ok: true });
    expect(checkTaxId('GB', 'GB123456789')).toMatchObject({ ok: true });
  });

  it("uses Greece's EL prefix", () => {
    expect(checkTaxId('GR', '123456789')).toEqual({ ok: true, normalised: 'EL123456789', kind: 'VAT' });
    expect(checkTaxId('GR', 'EL123456789')).toMatchObject({ ok: true, normalised: 'EL123456789' });
  });

  it('refuses a number that breaks its country’s format, with an example', () => {
    expect(checkTaxId('DE', 'DE12345678')).toEqual({
      ok: false,
      message: 'This is not a valid DE VAT number (e.g. DE123456789).',
    });
    expect(checkTaxId('NL', 'NL123456789').ok).toBe(false);
    expect(checkTaxId('FR', 'FRIO123456789').ok).toBe(false); // I and O are not used
    expect(checkTaxId('SE', 'SE123456789012').ok).toBe(false); // must end in 01
  });
});

describe('elsewhere', () => {
  it('accepts a plain id of 4–20 letters, digits or "/", and refuses anything else', () => {
    expect(checkTaxId('CA', '123456789RT0001')).toEqual({
      ok: true,
      normalised: '123456789RT0001',
      kind: 'other',
    });
    expect(checkTaxId('BR', '12.345.678/0001-95')).toMatchObject({ ok: true, normalised: '12345678/000195' });
    expect(checkTaxId('US', '<script>')).toEqual({
      ok: false,
      message: 'A tax id has 4 to 20 letters, digits or "/".',
    });
    expect(checkTaxId('US', '12')).toMatchObject({ ok: false });
  });

  it('normalises spaces, dots and hyphens away', () => {
    expect(normaliseTaxId(' de-123.456 789 ')).toBe('DE123456789');
  });
});

describe('companyTaxIdProblem', () => {
  const company = (country: string, taxId: string) => ({ taxId, address: { country } });

  it('allows no tax id, and checks a set one by the address country', () => {
    expect(companyTaxIdProblem(company('', ''))).toBeNull();
    expect(companyTaxIdProblem(company('IN', '27AAPFU0939F1ZV'))).toBeNull();
    expect(companyTaxIdProblem(company('IN', '27AAPFU0939F1ZX'))).toMatch(/check character/);
    expect(companyTaxIdProblem(company('DE', 'DE12345678'))).toMatch(/not a valid DE VAT number/);
    expect(companyTaxIdProblem(company('', 'DE123456789'))).toMatch(/Choose the company's country/);
  });
});
