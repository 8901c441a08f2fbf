// What the settings specs share: a section saved through the API on top of its current version, and one
// setting's block on the page.
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import type { SectionState } from '../../contracts/settings';
import { apiSession } from './support';

/** Saves (or resets) fields of the signed-in user's own `section` through the API, on the current version. */
export async function saveSection(
  request: APIRequestContext,
  email: string,
  section: string,
  body: { set?: Record<string, unknown>; reset?: string[] },
) {
  const { token } = await apiSession(request, email);
  const headers = { authorization: `Bearer ${token}` };
  const url = `/api/v1/settings/${section}`;
  const state = (await (await request.get(url, { headers })).json()) as SectionState;
  const response = await request.put(url, {
    headers,
    data: { version: state.version, set: body.set ?? {}, reset: body.reset ?? [] },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** One setting's block: its label, source badge, reset and control. */
export const settingField = (page: Page, label: string): Locator =>
  page
    .locator('[data-scope="field"][data-part="root"]')
    .filter({ has: page.locator('label', { hasText: new RegExp(`^${label}$`) }) })
    .first();
