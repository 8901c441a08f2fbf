// Attribute values in the product form: what each input holds (FormValue), read from a stored value
// (SPEC §3 shapes) and turned back into what the API takes. Pure, so every data type is unit-tested.
import type { Attribute, AttributeValue, AttributeValueInput } from '../../../contracts/catalog';
import { dateTimeInputValue } from '../../../contracts/domain/format';

/** An uploaded media file an IMAGE or VIDEO value points at. */
export interface MediaItem {
  id: string;
  url: string;
  fileName?: string;
}

/**
 * What an input holds: text (STRING, WYSIWYG, OBJECT as JSON text, DATETIME as datetime-local text,
 * numbers as typed text), option ids (ENUMERATED), texts (STRING MULTI), a yes/no, or media.
 */
export type FormValue = string | number[] | string[] | boolean | null | MediaItem[];

const isMulti = (def: Pick<Attribute, 'attributeType'>) => def.attributeType === 'MULTI';

/** The empty input of an attribute. */
export function emptyFormValue(def: Pick<Attribute, 'dataType' | 'attributeType'>): FormValue {
  switch (def.dataType) {
    case 'ENUMERATED':
      return [];
    case 'IMAGE':
    case 'VIDEO':
      return [];
    case 'BOOLEAN':
      return null;
    case 'STRING':
      return isMulti(def) ? [] : '';
    default:
      return '';
  }
}

/** The input of a stored value. */
export function formValueOf(
  def: Pick<Attribute, 'dataType' | 'attributeType'>,
  stored: AttributeValue | undefined,
): FormValue {
  if (!stored) return emptyFormValue(def);
  const items = 'values' in stored ? stored.values : [{ value: stored.value, valueId: stored.valueId }];
  switch (def.dataType) {
    case 'ENUMERATED':
      return items.flatMap((item) => (typeof item.valueId === 'number' ? [item.valueId] : []));
    case 'IMAGE':
    case 'VIDEO':
      return items.flatMap((item) =>
        typeof item.valueId === 'string' ? [{ id: item.valueId, url: String(item.value ?? '') }] : [],
      );
    case 'BOOLEAN':
      return typeof items[0]?.value === 'boolean' ? items[0].value : null;
    case 'STRING':
      return isMulti(def) ? items.map((item) => String(item.value ?? '')) : String(items[0]?.value ?? '');
    case 'OBJECT':
      return items[0]?.value === undefined || items[0]?.value === null
        ? ''
        : JSON.stringify(items[0].value, null, 2);
    case 'DATETIME':
      return typeof items[0]?.value === 'string' ? dateTimeInputValue(items[0].value) : '';
    default:
      return items[0]?.value === undefined || items[0]?.value === null ? '' : String(items[0].value);
  }
}

/** Whether an input holds nothing (the attribute is then left out, or cleared on an edit). */
export function isEmptyFormValue(value: FormValue): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

export class FormValueError extends Error {}

/**
 * The API's input for an attribute, or null when it is empty. A value the browser can already tell is
 * wrong (JSON that does not parse, a number that is not one) throws FormValueError with the message
 * shown on the field; everything else is checked by the server, which has the last word.
 */
export function toAttributeInput(
  def: Pick<Attribute, 'id' | 'label' | 'dataType' | 'attributeType'>,
  value: FormValue,
): AttributeValueInput | null {
  if (isEmptyFormValue(value)) return null;
  const keyId = def.id;
  switch (def.dataType) {
    case 'ENUMERATED': {
      const ids = value as number[];
      return isMulti(def)
        ? { keyId, values: ids.map((valueId) => ({ valueId })) }
        : { keyId, valueId: ids[0] as number };
    }
    case 'IMAGE':
    case 'VIDEO': {
      const media = value as MediaItem[];
      return isMulti(def)
        ? { keyId, values: media.map((item) => ({ valueId: item.id })) }
        : { keyId, valueId: (media[0] as MediaItem).id };
    }
    case 'BOOLEAN':
      return { keyId, value: value as boolean };
    case 'STRING':
      return isMulti(def)
        ? { keyId, values: (value as string[]).map((text) => ({ value: text })) }
        : { keyId, value: value as string };
    case 'NUMBER':
    case 'FLOAT': {
      const number = Number(String(value).replace(',', '.'));
      if (String(value).trim() === '' || !Number.isFinite(number)) {
        throw new FormValueError(`${def.label} must be a number.`);
      }
      return { keyId, value: number };
    }
    case 'OBJECT': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value as string);
      } catch {
        throw new FormValueError(`${def.label} is not valid JSON.`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new FormValueError(`${def.label} must be a JSON object, like {"key": "value"}.`);
      }
      return { keyId, value: parsed as Record<string, unknown> };
    }
    case 'DATETIME': {
      const date = new Date(value as string);
      if (Number.isNaN(date.getTime())) throw new FormValueError(`${def.label} is not a date and time.`);
      return { keyId, value: date.toISOString() };
    }
    default:
      return { keyId, value: value as string };
  }
}

/**
 * Every attribute's input as the API takes them. On a create, empty ones are left out; on an edit,
 * an emptied one is sent as null, which clears it. Errors are collected per field.
 */
export function attributeInputsOf(
  defs: readonly Pick<Attribute, 'id' | 'label' | 'dataType' | 'attributeType'>[],
  values: Readonly<Record<number, FormValue>>,
  mode: 'create' | 'edit',
): { inputs: AttributeValueInput[]; errors: Record<string, string> } {
  const inputs: AttributeValueInput[] = [];
  const errors: Record<string, string> = {};
  for (const def of defs) {
    const value = values[def.id] ?? emptyFormValue(def);
    try {
      const input = toAttributeInput(def, value);
      if (input) inputs.push(input);
      // An edit clears an emptied attribute in the shape its kind takes: a list is cleared as none.
      else if (mode === 'edit')
        inputs.push(
          def.attributeType === 'MULTI' ? { keyId: def.id, values: [] } : { keyId: def.id, value: null },
        );
    } catch (error) {
      if (!(error instanceof FormValueError)) throw error;
      errors[`attributeValues.${def.id}`] = error.message;
    }
  }
  return { inputs, errors };
}
