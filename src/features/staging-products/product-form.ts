// The product form's state (add and edit share it): the product's own fields as typed text, the
// gallery, and every attribute's input. `toCreateBody` / `toUpdateBody` turn it into the API's body;
// the server checks everything again and answers field errors the form shows where they belong.
import {
  type Attribute,
  type CreateProductBody,
  type Product,
  productTitleSchema,
  skuSchema,
  type UpdateProductBody,
} from '../../../contracts/catalog';
import { attributeInputsOf, type FormValue, formValueOf, type MediaItem } from './attribute-form';

export interface ProductFormState {
  sellerId: string;
  title: string;
  sku: string;
  categoryId: string;
  price: string;
  currency: string;
  inventory: string;
  weight: string;
  weightUnit: 'g' | 'kg' | 'lb';
  length: string;
  width: string;
  height: string;
  lengthUnit: 'cm' | 'm' | 'in';
  images: MediaItem[];
  attributes: Record<number, FormValue>;
}

export const emptyProductForm: ProductFormState = {
  sellerId: '',
  title: '',
  sku: '',
  categoryId: '',
  price: '',
  currency: 'INR',
  inventory: '0',
  weight: '',
  weightUnit: 'kg',
  length: '',
  width: '',
  height: '',
  lengthUnit: 'cm',
  images: [],
  attributes: {},
};

/** The form of a stored product (the details page's editor). */
export function productFormOf(product: Product, defs: readonly Attribute[]): ProductFormState {
  const stored = new Map(product.attributeValues.map((value) => [value.keyId, value]));
  return {
    sellerId: product.sellerId,
    title: product.title,
    sku: product.sku,
    categoryId: product.categoryId ?? '',
    price: String(product.price),
    currency: product.currency,
    inventory: String(product.inventory),
    weight: product.weight === null ? '' : String(product.weight),
    weightUnit: product.weightUnit,
    length: product.dimensions ? String(product.dimensions.length) : '',
    width: product.dimensions ? String(product.dimensions.width) : '',
    height: product.dimensions ? String(product.dimensions.height) : '',
    lengthUnit: product.dimensions?.unit ?? 'cm',
    images: product.images.map((image) => ({ id: image.id, url: image.thumbUrl, fileName: image.fileName })),
    attributes: Object.fromEntries(defs.map((def) => [def.id, formValueOf(def, stored.get(def.id))])),
  };
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.replace(',', '.')));

interface Built<T> {
  body: T | null;
  errors: Record<string, string>;
}

function common(form: ProductFormState, defs: readonly Attribute[], mode: 'create' | 'edit') {
  const errors: Record<string, string> = {};
  // The server's own rules, so an empty title or SKU is flagged on its field before sending.
  for (const [field, schema] of [
    ['title', productTitleSchema],
    ['sku', skuSchema],
  ] as const) {
    const checked = schema.safeParse(form[field]);
    if (!checked.success) errors[field] = checked.error.issues[0]?.message ?? 'Required.';
  }
  const price = numberOrNull(form.price);
  if (price === null || Number.isNaN(price)) errors.price = 'The price must be a number.';
  const inventory = numberOrNull(form.inventory);
  if (inventory === null || !Number.isInteger(inventory)) errors.inventory = 'Inventory is a whole number.';
  const weight = numberOrNull(form.weight);
  if (weight !== null && Number.isNaN(weight)) errors.weight = 'The weight must be a number.';
  const sides = [form.length, form.width, form.height].map(numberOrNull);
  const someSide = sides.some((side) => side !== null);
  if (someSide && sides.some((side) => side === null || Number.isNaN(side))) {
    errors.dimensions = 'Give the length, width and height, or none of them.';
  }
  const { inputs, errors: valueErrors } = attributeInputsOf(defs, form.attributes, mode);
  Object.assign(errors, valueErrors);
  return {
    errors,
    fields: {
      title: form.title.trim(),
      sku: form.sku.trim(),
      categoryId: form.categoryId,
      price: price ?? 0,
      currency: form.currency,
      inventory: inventory ?? 0,
      weight,
      weightUnit: form.weightUnit,
      dimensions: someSide
        ? {
            length: sides[0] as number,
            width: sides[1] as number,
            height: sides[2] as number,
            unit: form.lengthUnit,
          }
        : null,
      imageIds: form.images.map((image) => image.id),
      attributeValues: inputs,
    },
  };
}

export function toCreateBody(
  form: ProductFormState,
  defs: readonly Attribute[],
  forSeller: boolean,
): Built<CreateProductBody> {
  const { errors, fields } = common(form, defs, 'create');
  if (!forSeller && !form.sellerId) errors.sellerId = 'Choose the seller this product belongs to.';
  if (!form.categoryId) errors.categoryId = 'Choose a category.';
  if (Object.keys(errors).length) return { body: null, errors };
  return { body: { ...fields, ...(forSeller ? {} : { sellerId: form.sellerId }) }, errors };
}

export function toUpdateBody(
  form: ProductFormState,
  defs: readonly Attribute[],
  version: number,
): Built<UpdateProductBody> {
  const { errors, fields } = common(form, defs, 'edit');
  if (Object.keys(errors).length) return { body: null, errors };
  return { body: { ...fields, categoryId: fields.categoryId || undefined, version }, errors };
}
