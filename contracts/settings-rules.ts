/**
 * The rules between fields of one section, checked on the server after a save's values are merged with
 * the scope's other values (one field alone is checked by its schema in contracts/settings.ts). Each
 * problem names its field, so the page shows it there. Pure, so the page may check a draft too.
 */
import { companyProblems } from './domain/company-rules';
import { localizationProblems } from './domain/localization-rules';
import type { AllSettings, StoredSection } from './settings';

export interface FieldProblem {
  field: string;
  message: string;
}

type Rules = { [S in StoredSection]?: (values: AllSettings[S]) => FieldProblem[] };

const rules: Rules = {
  localization: localizationProblems,
  communication: (values) =>
    values.transport === 'smtp' && values.smtpHost.trim() === ''
      ? [{ field: 'smtpHost', message: 'Enter the SMTP host, or send mail to the outbox.' }]
      : [],
  company: companyProblems,
};

export function sectionProblems<S extends StoredSection>(section: S, values: AllSettings[S]): FieldProblem[] {
  return rules[section]?.(values) ?? [];
}
