// For API tests whose bot must connect customers to a person whatever the hour: office hours all day,
// every day, no holidays (23:59 counts to midnight, contracts/domain/office-hours.ts).
import { expect } from 'vitest';
import { type SectionState, weekdays } from '../../../contracts/settings';
import { type ApiAs, json } from '../../test-support';

export const ALWAYS_OPEN = Object.fromEntries(weekdays.map((day) => [day, [{ from: '00:00', to: '23:59' }]]));

export async function saveOfficeHours(as: ApiAs, officeHours: unknown, holidays: string[] = []) {
  const url = '/api/v1/settings/communication';
  const current = json<SectionState>(await as('Admin', 'GET', url));
  const saved = await as('Admin', 'PUT', url, { version: current.version, set: { officeHours, holidays } });
  expect(saved.statusCode, saved.body).toBe(200);
}
