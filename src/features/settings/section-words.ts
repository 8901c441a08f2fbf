// How the settings page names sections and fields (the labels live in contracts/settings-labels.ts, which
// the server's history export reads too) and reads a stored value, for the History panel and the overall
// history (secrets were recorded as "changed" by the server, never as values).
import type { StoredSection } from '../../../contracts/settings';

export { fieldLabel, sectionTitles } from '../../../contracts/settings-labels';

const MAX_SHOWN = 120;

/** A value as one line of text; long ones are cut (the export has them whole). */
export function formatSettingValue(_section: StoredSection, _field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
