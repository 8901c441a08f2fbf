// The query builder building block (ARCHITECTURE "query tree"): the UI and its pure helpers.
export type {
  LoadedOption,
  LoadOptions,
  ResolveOptionLabels,
  ValueEditorProps,
  ValueEditors,
} from './builder-context';
export { completeConditionsOnly, countAwaitingValue, isAwaitingValue } from './complete-conditions';
export { describeCondition, describeQuery, type OptionLabelOf } from './describe-query';
// How long typing pauses before the tree hears of it, and before an option source is searched.
export { OPTION_SEARCH_DEBOUNCE_MS } from './EnumValuesPicker';
export { QueryBuilder, type QueryBuilderProps } from './QueryBuilder';
export { FiltersButton, FiltersPanel } from './QueryFilters';
export { tagValueEditor, UNKNOWN_TAG_LABEL } from './TagValuesPicker';
export {
  addCondition,
  addGroup,
  canAddCondition,
  canAddGroup,
  changeField,
  changeOperator,
  type LimitCheck,
  newCondition,
  nodeAt,
  type QueryPath,
  removeNode,
  setCombinator,
  updateCondition,
  withValue,
} from './tree-edit';
export { DRAFT_COMMIT_MS } from './use-draft';
export { useQueryDraft } from './use-query-draft';
