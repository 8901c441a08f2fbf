// How a product's history reads: field names in words, statuses by their labels, prices as money in the
// product's currency, other values as text.

import type { AuditEntry } from '../../../contracts/audit';
import { type ProductStatus, productStatuses, productStatusLabels } from '../../../contracts/catalog';
import { formatMoney } from '../../../contracts/domain/currency';
import { plural } from '../../../contracts/domain/format';
import type { HistoryWords } from '../../ui/history-timeline';

const fieldLabels: Record<string, string> = {
  title: 'Title',
  sku: 'SKU',
  categoryId: 'Category',
  price: 'Price',
  currency: 'Currency',
  inventory: 'Inventory',
  weight: 'Weight',
  weightUnit: 'Weight unit',
  dimensions: 'Dimensions',
  imageIds: 'Images',
  status: 'Status',
  tags: 'Tags',
};

const actionVerbs: Record<string, string> = {
  created: 'added the product',
  updated: 'edited the product',
  status: 'changed the status',
  // The tag tree changed under the product (a tag deleted or remapped): the note says how.
  tags: 'retagged the product',
};

const isStatus = (value: unknown): value is ProductStatus =>
  typeof value === 'string' && (productStatuses as readonly string[]).includes(value);

function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (isStatus(value)) return productStatusLabels[value];
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    // Image lists are ids: their count says what changed.
    if (value.every((item) => typeof item === 'string' && /^[0-9a-f-]{36}$/.test(item))) {
      return plural(value.length, 'image');
    }
    return value.map(formatValue).join(', ');
  }
  if (typeof value === 'object') {
    const dims = value as { length?: number; width?: number; height?: number; unit?: string };
    if (dims.length !== undefined && dims.unit)
      return `${dims.length} × ${dims.width} × ${dims.height} ${dims.unit}`;
    return JSON.stringify(value);
  }
  const text = String(value);
  // Rich text reads as its words in the timeline.
  return text.includes('<')
    ? (new DOMParser().parseFromString(text, 'text/html').body.textContent ?? text)
    : text;
}

/** A product's history words; `currency` is the product's, which its prices are in. */
export function productHistoryWords(currency: string): HistoryWords {
  return {
    fieldLabel: (field) => fieldLabels[field] ?? field,
    actionText: (entry: AuditEntry) => actionVerbs[entry.action] ?? entry.action,
    formatValue: (value, field) =>
      field === 'price' && typeof value === 'number' ? formatMoney(value, currency) : formatValue(value),
    // A status note is the reviewer's reason (their words); retags and imports note what the server did.
    noteIsQuote: (entry) => entry.action === 'status',
  };
}
