// Suggested titles (getSuggestedTitles): a rule, not a guess. The admin's template, e.g.
// "{brand} {model} {colour} {size}", is filled per row from its attributes (by code), its product
// fields (title, sku, category) or any column of the sheet (by header, for columns such as "Model"
// that no attribute holds). Placeholders with no value are dropped with the spaces and separators
// around them, so a row without a size never ends in a dangling dash.
import { PRODUCT_LIMITS } from '../../../contracts/catalog';
import { DEFAULT_TITLE_TEMPLATE } from '../../../contracts/imports';
import type { Db } from '../../db/client';
import { getSetting, setSetting } from '../../lib/settings';
import type { CatalogContext } from './catalog-context';

const SETTING = 'imports.titleTemplate';
const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

export async function titleTemplate(db: Db): Promise<string> {
  return (await getSetting<string>(db, SETTING)) ?? DEFAULT_TITLE_TEMPLATE;
}

export const saveTitleTemplate = (db: Db, template: string) => setSetting(db, SETTING, template);

export const placeholdersOf = (template: string) =>
  [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);

/** The attributes the template names: with the title, they decide which products are duplicates. */
export function keyAttributeIds(template: string, catalog: CatalogContext): number[] {
  return placeholdersOf(template)
    .map((name) => catalog.attributeByCode.get(name.toLowerCase())?.id)
    .filter((id): id is number => id !== undefined);
}

/** The template filled with `fill(placeholder)`; empty when nothing could be filled. */
export function fillTemplate(template: string, fill: (name: string) => string | null): string {
  let filledAny = false;
  const text = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = fill(name)?.trim() ?? '';
    if (value) filledAny = true;
    return value;
  });
  if (!filledAny) return '';
  return text
    .replace(/\s+/g, ' ')
    .replace(/([-–|,/])(\s*[-–|,/])+/g, '$1')
    .replace(/^[\s\-–|,/]+|[\s\-–|,/]+$/g, '')
    .slice(0, PRODUCT_LIMITS.title);
}
