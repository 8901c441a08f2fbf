// Whether a person answers the help chat now (issue 29, Settings → Communication): the marketplace's
// office hours and holidays, in its time zone. Outside them the bot still answers; asked for a person,
// it says when one will (and the connect request waits for them).
import { closedNotice, isOpen } from '../../../contracts/domain/office-hours';
import type { AllSettings } from '../../../contracts/settings';

export interface OfficeState {
  open: boolean;
  /** What the bot says outside office hours; null while open. */
  notice: string | null;
}

export function officeState(settings: AllSettings, now = new Date()): OfficeState {
  const { officeHours, holidays } = settings.communication;
  const { timeZone } = settings.localization;
  if (isOpen(now, officeHours, holidays, timeZone)) return { open: true, notice: null };
  return { open: false, notice: closedNotice(now, officeHours, holidays, timeZone) };
}
