// The attribute editor's form state, what it sends, and its errors, free of React so they can be tested
// on their own. Fields follow the data type: a unit only for numbers, several values only for lists,
// options only for ENUMERATED.
import type { AttributeDetail, UpdateAttributeAdminBody } from '../../../contracts/attribute-admin';
import { updateAttributeAdminBodySchema } from '../../../contracts/attribute-admin';
import {
  type AttributeDataType,
  type AttributeType,
  type CreateAttributeBody,
  createAttributeBodySchema,
  multiValueDataTypes,
  unitDataTypes,
} from '../../../contracts/catalog';
import { plural } from '../../../contracts/domain/format';
import type { SaveAttributeInput } from './api';

export interface OptionDraft {
  /** Stable React key: the option's id, or a local one for a new option. */
  key: string;
  valueId?: number;
  value: string;
  /** Products that chose it (0 for a new one): such an option cannot be removed. */
  productCount: number;
}

export interface AttributeDraft {
  code: string;
  label: string;
  dataType: AttributeDataType;
  attributeType: AttributeType;
  isRequired: boolean;
  unit: string;
  groupName: string;
  options: OptionDraft[];
}

/** Field key → message. Options are keyed `options.<index>` (one row) or `options` (the list). */
export type FormErrors = Record<string, string>;

export const DEFAULT_GROUP = 'Attributes';

let newOptionKeys = 0;
export const newOptionKey = () => `new-${++newOptionKeys}`;

export function draftOf(attribute: AttributeDetail | null): AttributeDraft {
  return {
    code: attribute?.code ?? '',
    label: attribute?.label ?? '',
    dataType: attribute?.dataType ?? 'STRING',
    attributeType: attribute?.attributeType ?? 'SINGLE',
    isRequired: attribute?.isRequired ?? false,
    unit: attribute?.unit ?? '',
    groupName: attribute?.groupName ?? DEFAULT_GROUP,
    options:
      attribute?.options.map((option) => ({
        key: `option-${option.valueId}`,
        valueId: option.valueId,
        value: option.value,
        productCount: option.productCount,
      })) ?? [],
  };
}

/** A new data type keeps only what it allows: no unit for non-numbers, one value for non-lists. */
export function withDataType(draft: AttributeDraft, dataType: AttributeDataType): AttributeDraft {
  return {
    ...draft,
    dataType,
    attributeType: multiValueDataTypes.has(dataType) ? draft.attributeType : 'SINGLE',
    unit: unitDataTypes.has(dataType) ? draft.unit : '',
  };
}

/** What the form may change of an existing attribute, and why not when it may not. */
export function lockedFields(attribute: AttributeDetail | null): { code?: string; dataType?: string } {
  if (!attribute) return {};
  const products = attribute.productCount;
  const views = attribute.savedViewCount;
  const productsHold = plural(products, 'product holds a value', 'products hold values');
  return {
    ...(products > 0
      ? {
          code: `Fixed: ${productsHold}.`,
          dataType: `Fixed: ${productsHold}.`,
        }
      : views > 0
        ? { code: `Fixed: ${views} saved ${views === 1 ? 'view names' : 'views name'} it.` }
        : {}),
  };
}

const optionLabels = (draft: AttributeDraft) => draft.options.map((option) => option.value.trim());

/** The create body: exactly what the API takes, options only for ENUMERATED. */
export function createBodyOf(draft: AttributeDraft): CreateAttributeBody {
  return {
    code: draft.code.trim(),
    label: draft.label.trim(),
    dataType: draft.dataType,
    attributeType: draft.attributeType,
    isRequired: draft.isRequired,
    unit: unitDataTypes.has(draft.dataType) && draft.unit.trim() ? draft.unit.trim() : null,
    groupName: draft.groupName.trim() || DEFAULT_GROUP,
    options: draft.dataType === 'ENUMERATED' ? optionLabels(draft) : [],
  };
}

/** The edit body: the code and data type only when they changed (they may be locked), the rest always. */
export function updateBodyOf(draft: AttributeDraft, attribute: AttributeDetail): UpdateAttributeAdminBody {
  const created = createBodyOf(draft);
  return {
    ...(created.code !== attribute.code ? { code: created.code } : {}),
    ...(created.dataType !== attribute.dataType ? { dataType: created.dataType } : {}),
    label: created.label,
    attributeType: created.attributeType,
    isRequired: created.isRequired,
    unit: created.unit,
    groupName: created.groupName,
    ...(draft.dataType === 'ENUMERATED'
      ? {
          options: draft.options.map((option) => ({
            ...(option.valueId !== undefined ? { valueId: option.valueId } : {}),
            value: option.value.trim(),
          })),
        }
      : {}),
  };
}

/** zod issues as form errors: option rows by index, every other field by name; the first message wins. */
function errorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const [field, index] = issue.path;
    const key = field === 'options' && typeof index === 'number' ? `options.${index}` : String(field);
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * Checks the draft as the server will (same schemas, plus unique option labels ignoring case) and
 * answers the body to send, or the errors to show.
 */
export function validate(
  draft: AttributeDraft,
  attribute: AttributeDetail | null,
): { input: SaveAttributeInput; errors?: undefined } | { errors: FormErrors } {
  const errors: FormErrors = {};
  if (draft.dataType === 'ENUMERATED') {
    const seen = new Set<string>();
    for (const [index, label] of optionLabels(draft).entries()) {
      const key = label.toLowerCase();
      if (label && seen.has(key)) errors[`options.${index}`] = `“${label}” is already an option.`;
      seen.add(key);
    }
  }
  const input: SaveAttributeInput = attribute
    ? { id: attribute.id, body: updateBodyOf(draft, attribute) }
    : { body: createBodyOf(draft) };
  const parsed = attribute
    ? updateAttributeAdminBodySchema.safeParse(input.body)
    : createAttributeBodySchema.safeParse(input.body);
  if (!parsed.success) Object.assign(errors, { ...errorsOf(parsed.error.issues), ...errors });
  if (Object.keys(errors).length) return { errors };
  return { input };
}
