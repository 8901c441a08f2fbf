import { normalizeText } from '../../../contracts/query-tree';

/**
 * A product's title and SKU with the search keys written beside them (products.title_key, sku_key):
 * the query compiler and the search box compare these, so every writer must go through here.
 */
export function productKeys(title: string, sku: string) {
  return { title, sku, titleKey: normalizeText(title), skuKey: normalizeText(sku) };
}
