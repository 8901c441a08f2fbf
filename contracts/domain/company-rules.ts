/**
 * The rules between the company settings' fields (issue 29), checked on the server after a save's
 * values are merged with the scope's others (contracts/settings-rules.ts), and by the page on its draft.
 * Each problem names its field, so the page shows it there.
 */
import { type SeriesPreset, seriesPatternProblems } from './document-numbering';
import { UUID_SOURCE } from './ids';
import { companyTaxIdProblem } from './tax-ids';

/** The company fields the rules read (structurally the company section of AllSettings). */
export interface CompanyRuleValues {
  address: { country: string };
  taxId: string;
  logo: string | null;
  seriesPreset: SeriesPreset | 'custom';
  invoiceSeries: string;
  creditNoteSeries: string;
}

/** The public path of a logo the upload stored (server/modules/sellers/files.ts serves it). */
const UPLOADED_LOGO = new RegExp(`^/files/logos/${UUID_SOURCE}\\.(png|jpg|webp)$`);

export function companyProblems(values: CompanyRuleValues): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (values.seriesPreset === 'india') {
    for (const field of ['invoiceSeries', 'creditNoteSeries'] as const) {
      const [problem] = seriesPatternProblems(values[field], 'india');
      if (problem) problems.push({ field, message: problem });
    }
  }
  const taxIdProblem = companyTaxIdProblem(values);
  if (taxIdProblem) problems.push({ field: 'taxId', message: taxIdProblem });
  // Only a logo uploaded through POST /settings/company/logo, never an address typed in.
  if (values.logo !== null && !UPLOADED_LOGO.test(values.logo)) {
    problems.push({ field: 'logo', message: 'Upload the logo: it must be a file uploaded here.' });
  }
  return problems;
}
