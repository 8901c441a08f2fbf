import { describe, expect, it } from 'vitest';
import { companyProblems } from './company-rules';

const company = {
  address: { country: 'IN' },
  taxId: '',
  logo: null,
  seriesPreset: 'india' as const,
  invoiceSeries: 'INV/{FY2}/{seq:05}',
  creditNoteSeries: 'CN/{FY2}/{seq:05}',
};

describe('companyProblems', () => {
  it('accepts the India preset, no tax id and no logo', () => {
    expect(companyProblems(company)).toEqual([]);
  });

  it('holds series under the India preset to Rule 46, and lets a custom series be longer', () => {
    const long = { ...company, invoiceSeries: 'INVOICE-{YYYY}-{seq:06}' };
    expect(companyProblems(long)).toEqual([
      { field: 'invoiceSeries', message: expect.stringMatching(/at most 16 characters/) },
    ]);
    expect(companyProblems({ ...long, seriesPreset: 'custom' })).toEqual([]);
  });

  it('checks the tax id by the address country', () => {
    expect(companyProblems({ ...company, taxId: '27AAPFU0939F1ZX' })).toEqual([
      { field: 'taxId', message: expect.stringMatching(/check character/) },
    ]);
    expect(companyProblems({ ...company, taxId: '27AAPFU0939F1ZV' })).toEqual([]);
  });

  it('takes only an uploaded logo path', () => {
    const uploaded = '/files/logos/0b5e7a39-4d1e-4c3a-9b57-7b2f3f0d9a11.png';
    expect(companyProblems({ ...company, logo: uploaded })).toEqual([]);
    for (const logo of ['javascript:alert(1)', 'https://evil.example/x.png', '/files/logos/../x.png']) {
      expect(companyProblems({ ...company, logo })).toEqual([
        { field: 'logo', message: 'Upload the logo: it must be a file uploaded here.' },
      ]);
    }
  });
});
