// Gapless invoice and credit-note numbers (issue 31). The number is drawn inside the issuing transaction
// from one counter row per issuer, series and period: `INSERT … ON CONFLICT DO UPDATE … RETURNING` takes
// the row's lock, so two issues at once wait for each other and never share or skip a number; a
// transaction that rolls back gives its number back with it. Drafts have no number, so deleting one
// leaves no gap (ERPNext #8765). The period is the fiscal year in the issuer's time zone when the series
// prints the year, so a new fiscal year starts at 1 and the old year's counter is left as it was.
import { sql } from 'drizzle-orm';
import {
  type CalendarDate,
  calendarDateIn,
  counterPeriod,
  formatDocumentNumber,
} from '../../../contracts/domain/document-numbering';
import type { InvoiceKind } from '../../../contracts/domain/invoice-state';
import type { AllSettings } from '../../../contracts/settings';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';

export interface DrawnNumber {
  number: string;
  series: InvoiceKind;
  period: string;
  sequence: number;
  issuedOn: CalendarDate;
}

/** YYYY-MM-DD of a calendar day. */
export const isoOf = (date: CalendarDate) =>
  `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

/** The day `days` after `iso` (calendar arithmetic in UTC, where a day is always 24 hours). */
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Today as the issuer's time zone sees it. */
export const todayFor = (settings: AllSettings, now = new Date()) =>
  isoOf(calendarDateIn(now, settings.localization.timeZone));

export async function drawNumber(
  tx: Tx,
  issuer: string,
  series: InvoiceKind,
  settings: AllSettings,
  now: Date,
): Promise<DrawnNumber> {
  const pattern = series === 'invoice' ? settings.company.invoiceSeries : settings.company.creditNoteSeries;
  const { fiscalYearStartMonth } = settings.company;
  const issuedOn = calendarDateIn(now, settings.localization.timeZone);
  const period = counterPeriod(pattern, issuedOn, fiscalYearStartMonth);
  const result = await tx.execute(sql`
    INSERT INTO invoice_counters AS c (issuer, series, period, last) VALUES (${issuer}, ${series}, ${period}, 1)
    ON CONFLICT (issuer, series, period) DO UPDATE SET last = c.last + 1
    RETURNING last`);
  const sequence = Number(rowsOf<{ last: number }>(result)[0]?.last);
  return {
    number: formatDocumentNumber(pattern, { sequence, issuedOn, fiscalYearStartMonth }),
    series,
    period,
    sequence,
    issuedOn,
  };
}
