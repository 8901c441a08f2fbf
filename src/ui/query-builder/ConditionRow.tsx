import { Flex, IconButton, Stack, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { memo, useCallback, useId, useRef } from 'react';
import type { Operator, QueryCondition, QueryField } from '../../../contracts/query-tree';
import { conditionName, focusKeys, samePath, useBuilder, useFocusRequest } from './builder-context';
import { conditionProblem, isAwaitingValue } from './complete-conditions';
import { EnumValuesPicker } from './EnumValuesPicker';
import { FieldPicker } from './FieldPicker';
import { OperatorPicker } from './OperatorPicker';
import {
  changeField,
  changeOperator,
  type QueryPath,
  removeNode,
  updateCondition,
  valueShapeOf,
  withValue,
} from './tree-edit';
import { DateValue, NumberValue, RangeValue, type SetValue, TextValue } from './value-editors';

/** What a condition still waiting for its value says, by what the value is. */
function awaitingHint(condition: QueryCondition, field: QueryField): string {
  const shape = valueShapeOf(condition.op);
  const what =
    shape === 'list'
      ? `Choose at least one ${field.kind === 'tree' ? field.label.toLowerCase() : 'option'}`
      : shape === 'pair'
        ? 'Fill in both ends of the range'
        : field.kind === 'date'
          ? 'Pick a date'
          : field.kind === 'number'
            ? 'Enter a number'
            : 'Enter some text';
  return `${what}; until then this condition is left out.`;
}

function ValueEditor({
  condition,
  field,
  setValue,
  disabled,
}: {
  condition: QueryCondition;
  field: QueryField;
  setValue: SetValue;
  disabled: boolean;
}) {
  const { valueEditors } = useBuilder();
  const { value } = condition;
  switch (valueShapeOf(condition.op)) {
    case 'none':
      return null;
    case 'list': {
      // A feature's own editor for this source (tags: chosen in the tree), else the searched list.
      const Own = field.optionSource ? valueEditors?.[field.optionSource] : undefined;
      return Own ? (
        <Own field={field} value={value} setValue={setValue} disabled={disabled} />
      ) : (
        <EnumValuesPicker field={field} value={value} setValue={setValue} disabled={disabled} />
      );
    }
    case 'pair':
      return field.kind === 'number' || field.kind === 'date' ? (
        <RangeValue
          kind={field.kind}
          value={value}
          setValue={setValue}
          unit={field.unit}
          disabled={disabled}
        />
      ) : null;
    default:
      if (field.kind === 'number') {
        return <NumberValue value={value} setValue={setValue} unit={field.unit} disabled={disabled} />;
      }
      if (field.kind === 'date') return <DateValue value={value} setValue={setValue} disabled={disabled} />;
      return <TextValue value={value} setValue={setValue} disabled={disabled} />;
  }
}

interface ConditionRowProps {
  condition: QueryCondition;
  path: QueryPath;
}

/**
 * One condition: field, operator, value and a remove button. A condition waiting for its value says
 * so (it is left out of the query meanwhile); one the catalogue cannot run (a deleted attribute) shows
 * the problem and can still be re-pointed to another field or removed.
 */
export const ConditionRow = memo(function ConditionRow({ condition, path }: ConditionRowProps) {
  const { fields, fieldsByKey, edit, disabled, requestFocus } = useBuilder();
  // Callbacks read the newest path through a ref, so they stay the same function across renders and
  // the pickers below (memoised) do not re-render when a sibling comes or goes.
  const pathRef = useRef(path);
  pathRef.current = path;
  const field = fieldsByKey.get(condition.field);
  const hintId = useId();
  const fieldInput = useRef<HTMLInputElement>(null);
  useFocusRequest(focusKeys.field(path), fieldInput);

  const onField = useCallback(
    (key: string) => {
      const next = fieldsByKey.get(key);
      if (next)
        edit((tree) => updateCondition(tree, pathRef.current, (current) => changeField(current, next)));
    },
    [edit, fieldsByKey],
  );
  const onOperator = useCallback(
    (op: Operator) =>
      edit((tree) => updateCondition(tree, pathRef.current, (current) => changeOperator(current, op))),
    [edit],
  );
  const setValue = useCallback<SetValue>(
    (update) =>
      edit((tree) =>
        updateCondition(tree, pathRef.current, (current) => withValue(current, update(current.value))),
      ),
    [edit],
  );
  const onRemove = () => {
    const parent = pathRef.current.slice(0, -1);
    requestFocus(focusKeys.addCondition(parent));
    edit((tree) => removeNode(tree, pathRef.current));
  };

  const awaiting = field !== undefined && isAwaitingValue(condition);
  const problem = awaiting ? null : conditionProblem(condition, fieldsByKey);
  const name = conditionName(path);

  return (
    <Stack role="group" aria-label={name} aria-describedby={awaiting || problem ? hintId : undefined} gap="1">
      <Flex gap="2" align={{ base: 'stretch', md: 'flex-start' }} direction={{ base: 'column', md: 'row' }}>
        <FieldPicker
          fields={fields}
          value={field ? condition.field : ''}
          onChange={onField}
          disabled={disabled}
          invalid={!field}
          inputRef={fieldInput}
        />
        {field ? (
          <>
            <OperatorPicker
              kind={field.kind}
              value={condition.op}
              onChange={onOperator}
              disabled={disabled}
            />
            <Flex flex="1" minW="0">
              <ValueEditor condition={condition} field={field} setValue={setValue} disabled={disabled} />
            </Flex>
          </>
        ) : (
          <Flex flex="1" />
        )}
        <IconButton
          aria-label={`Remove ${name.toLowerCase()}`}
          size="sm"
          variant="ghost"
          disabled={disabled}
          onClick={onRemove}
          alignSelf={{ base: 'flex-end', md: 'flex-start' }}
        >
          <Trash2 />
        </IconButton>
      </Flex>
      {/* The hint's line is always there, empty when there is nothing to say: a hint that vanished when
          a typed value was committed on blur moved the buttons below up under the pointer, and the
          click meant for "+ Condition" landed on nothing. */}
      <Text
        id={hintId}
        data-testid="condition-hint"
        fontSize="xs"
        lineHeight="1rem"
        minH="1rem"
        color={problem && !awaiting ? 'fg.error' : 'fg.muted'}
      >
        {awaiting && field ? awaitingHint(condition, field) : (problem ?? '')}
      </Text>
    </Stack>
  );
}, sameRow);

/** Rows compare by content, not identity: a page that decodes its tree from the URL makes new objects every time. */
function sameRow(before: ConditionRowProps, after: ConditionRowProps) {
  return (
    samePath(before.path, after.path) &&
    (before.condition === after.condition ||
      JSON.stringify(before.condition) === JSON.stringify(after.condition))
  );
}
