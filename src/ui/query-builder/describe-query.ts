// A query in one readable line for chips, tooltips and saved-view lists:
// `Status is any of Live, Approved AND (Colour is any of Red OR Screen size ≥ 6 in)`.
import {
  isGroup,
  operatorLabels,
  type QueryCondition,
  type QueryField,
  type QueryFieldOption,
  type QueryNode,
  type QueryTree,
} from '../../../contracts/query-tree';
import { isAwaitingValue } from './complete-conditions';
import { valueShapeOf } from './tree-edit';

/**
 * The label of an option of a searched option source (sellers, categories), when the caller knows it.
 * Fields with their own `options` are named from those.
 */
export type OptionLabelOf = (field: QueryField, value: string | number) => string | undefined;

/** A list longer than this reads "Red, Blue, Green, Black, White +3 more". */
const LISTED_VALUES = 5;
/** What stands for a value not entered yet. */
const MISSING = '…';

function optionLabel(field: QueryField | undefined, value: string | number, labelOf?: OptionLabelOf) {
  if (!field) return String(value);
  const own = field.options?.find((option: QueryFieldOption) => String(option.value) === String(value));
  return own?.label ?? labelOf?.(field, value) ?? String(value);
}

/** A number or date with the field's unit: "6 in", "80%". */
function withUnit(field: QueryField | undefined, part: string | number): string {
  const text = part === '' ? MISSING : String(part);
  if (!field?.unit || part === '') return text;
  return field.unit === '%' ? `${text}%` : `${text} ${field.unit}`;
}

function describeValue(condition: QueryCondition, field: QueryField | undefined, labelOf?: OptionLabelOf) {
  const { value } = condition;
  switch (valueShapeOf(condition.op)) {
    case 'none':
      return '';
    case 'list': {
      if (!Array.isArray(value) || !value.length) return MISSING;
      const names = value.slice(0, LISTED_VALUES).map((choice) => optionLabel(field, choice, labelOf));
      const more = value.length - LISTED_VALUES;
      return more > 0 ? `${names.join(', ')} +${more} more` : names.join(', ');
    }
    case 'pair': {
      const [from = '', to = ''] = Array.isArray(value) ? value : [];
      return `${withUnit(field, from)} and ${withUnit(field, to)}`;
    }
    default:
      if (value === undefined || Array.isArray(value) || isAwaitingValue(condition)) return MISSING;
      return field?.kind === 'text' ? `"${value}"` : withUnit(field, value);
  }
}

/** One condition: `Screen size ≥ 6 in`, `Images is empty`, `Title contains "shirt"`. */
export function describeCondition(
  condition: QueryCondition,
  field: QueryField | undefined,
  labelOf?: OptionLabelOf,
): string {
  const name = field?.label ?? condition.field;
  const value = describeValue(condition, field, labelOf);
  return [name, operatorLabels[condition.op], value].filter(Boolean).join(' ');
}

function describeNode(
  node: QueryNode,
  fields: ReadonlyMap<string, QueryField>,
  labelOf: OptionLabelOf | undefined,
  nested: boolean,
): string {
  if (!isGroup(node)) return describeCondition(node, fields.get(node.field), labelOf);
  const parts = node.children
    .map((child) => describeNode(child, fields, labelOf, true))
    .filter((part) => part !== '');
  const text = parts.join(node.combinator === 'and' ? ' AND ' : ' OR ');
  // Parentheses only where they change the reading: a nested group of two or more.
  return nested && parts.length > 1 ? `(${text})` : text;
}

/**
 * The tree in one line, nested groups in parentheses; empty groups are skipped and an empty tree is
 * ''. Conditions without their value show "…" (describe `completeConditionsOnly(tree)` to name only
 * what is applied). Unknown fields are named by their key.
 */
export function describeQuery(
  tree: QueryTree,
  fields: readonly QueryField[],
  labelOf?: OptionLabelOf,
): string {
  return describeNode(tree, new Map(fields.map((field) => [field.key, field])), labelOf, false);
}
