// A field catalogue for the builder's tests: one field of every kind, shaped like a real feature's
// (enumerated options with numeric ids, a searched option source, units), yet about nothing in particular.
import type { QueryField } from '../../../contracts/query-tree';

export const testFields: QueryField[] = [
  { key: 'title', label: 'Title', kind: 'text', group: 'Item' },
  {
    key: 'status',
    label: 'Status',
    kind: 'enum',
    group: 'Item',
    options: [
      { value: 'LIVE', label: 'Live' },
      { value: 'APPROVED', label: 'Approved' },
      { value: 'DRAFT', label: 'Draft' },
    ],
  },
  { key: 'seller', label: 'Seller', kind: 'enum', group: 'Item', optionSource: 'sellers' },
  { key: 'price', label: 'Price', kind: 'number', group: 'Item' },
  { key: 'completeness', label: 'Completeness', kind: 'number', unit: '%', group: 'Item' },
  { key: 'createdAt', label: 'Created', kind: 'date', group: 'Item' },
  { key: 'images', label: 'Images', kind: 'media', group: 'Item' },
  {
    key: 'attr.color',
    label: 'Colour',
    kind: 'enum',
    group: 'Attributes · Apparel',
    options: [
      { value: 3, label: 'Red' },
      { value: 4, label: 'Blue' },
    ],
  },
  { key: 'attr.screen', label: 'Screen size', kind: 'number', unit: 'in', group: 'Attributes · Phones' },
  { key: 'attr.waterproof', label: 'Waterproof', kind: 'boolean', group: 'Attributes · Phones' },
  { key: 'attr.material', label: 'Material', kind: 'text', group: 'Attributes · Apparel' },
];

export const testField = (key: string): QueryField => {
  const field = testFields.find((candidate) => candidate.key === key);
  if (!field) throw new Error(`No test field ${key}`);
  return field;
};
