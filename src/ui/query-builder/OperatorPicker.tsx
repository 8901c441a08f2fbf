import { NativeSelect } from '@chakra-ui/react';
import { memo } from 'react';
import {
  type FieldKind,
  type Operator,
  operatorLabels,
  operatorsByKind,
} from '../../../contracts/query-tree';

/** The operators of a field's kind, in the order the contract lists them. */
export const OperatorPicker = memo(function OperatorPicker({
  kind,
  value,
  onChange,
  disabled,
}: {
  kind: FieldKind;
  value: Operator;
  onChange: (op: Operator) => void;
  disabled?: boolean;
}) {
  return (
    <NativeSelect.Root size="sm" width={{ base: 'full', md: '36' }} flexShrink={0} disabled={disabled}>
      <NativeSelect.Field
        aria-label="Operator"
        value={value}
        onChange={(event) => onChange(event.target.value as Operator)}
      >
        {operatorsByKind[kind].map((op) => (
          <option key={op} value={op}>
            {operatorLabels[op]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
});
