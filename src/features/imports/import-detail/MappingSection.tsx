import {
  Alert,
  Box,
  Button,
  Checkbox,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { RotateCcw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { plural } from '../../../../contracts/domain/format';
import {
  type BlankPolicy,
  blankPolicies,
  blankPolicyLabels,
  type Import,
  type MappingTargetOption,
} from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { FormMessage } from '../../../ui/form-parts';
import { notify } from '../../../ui/notify';
import { ErrorState, LoadingState } from '../../../ui/page-states';
import { TableScroll } from '../../../ui/table-scroll';
import { isRunning, useMappingTargets, useReprocessBatch } from '../shared/api';
import { RadioChoices } from '../shared/RadioChoices';
import {
  blocksApplying,
  columnLetter,
  groupTargets,
  type MappingRow,
  mappingChanged,
  mappingProblems,
  mappingRows,
  reprocessBody,
} from './mapping';

/** One column's target: product fields and attributes in their groups, or "Not imported". */
function TargetSelect({
  row,
  options,
  disabled,
  onChange,
}: {
  row: MappingRow;
  options: readonly MappingTargetOption[];
  disabled: boolean;
  onChange: (target: string | null) => void;
}) {
  const { fields, attributes } = useMemo(() => groupTargets(options), [options]);
  const known = row.target === null || options.some((option) => option.target === row.target);
  return (
    <NativeSelect.Root size="sm" disabled={disabled}>
      <NativeSelect.Field
        aria-label={`Target for ${row.header || `column ${columnLetter(row.index)}`}`}
        value={row.target ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">Not imported</option>
        {known ? null : <option value={row.target ?? ''}>{row.target} (no longer offered)</option>}
        <optgroup label="Fields">
          {fields.map((option) => (
            <option key={option.target} value={option.target}>
              {option.label}
              {option.requiredToCreate ? ' *' : ''}
            </option>
          ))}
        </optgroup>
        {attributes.length ? (
          <optgroup label="Attributes">
            {attributes.map((option) => (
              <option key={option.target} value={option.target}>
                {option.label}
              </option>
            ))}
          </optgroup>
        ) : null}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** What is wrong with the mapping, before it is sent. */
function MappingWarnings({ rows, options }: { rows: MappingRow[]; options: readonly MappingTargetOption[] }) {
  const problems = mappingProblems(rows, options);
  return (
    <Stack gap="2">
      {problems.duplicates.map((duplicate) => (
        <FormMessage key={duplicate.target} status="error">
          {`${duplicate.label} is chosen for ${duplicate.columns.length} columns (${duplicate.columns.join(', ')}): keep one.`}
        </FormMessage>
      ))}
      {problems.unknown.map((unknown) => (
        <FormMessage key={unknown.column} status="error">
          {`Column ${unknown.column} maps to ${unknown.target}, which is no longer offered: choose another target.`}
        </FormMessage>
      ))}
      {problems.missingRequired.length > 0 ? (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>
            No column fills {problems.missingRequired.map((missing) => missing.label).join(', ')}: rows for
            new products will be errors (updates of existing products still work).
          </Alert.Title>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}

/**
 * The mapping editor: every sheet column with its target (unmapped ones stand out), the blank-cell rule
 * and whether to remember the mapping for the seller. "Apply and revalidate" makes a new batch with it.
 */
function MappingEditor({
  item,
  options,
  canEdit,
}: {
  item: Import;
  options: readonly MappingTargetOption[];
  canEdit: boolean;
}) {
  const { batch } = item;
  const original = useMemo(() => mappingRows(item, batch.mapping), [item, batch.mapping]);
  const [rows, setRows] = useState(original);
  const [policy, setPolicy] = useState<BlankPolicy>(batch.blankPolicy);
  const [remember, setRemember] = useState(true);
  const reprocess = useReprocessBatch();
  const running = isRunning(batch.status);
  const disabled = !canEdit || running || reprocess.isPending;
  const hints = useMemo(() => new Map(options.map((option) => [option.target, option.hint])), [options]);
  const problems = mappingProblems(rows, options);
  const changed = mappingChanged(rows, original, policy, batch.blankPolicy);

  const apply = () =>
    reprocess.mutate(reprocessBody(batch.id, rows, policy, remember), {
      onSuccess: (answer) =>
        notify({
          type: 'success',
          title: `Revalidating as batch ${answer.batch.number}`,
          description: 'The report and preview fill in when every row is checked again.',
        }),
    });

  return (
    <Stack gap="5">
      {running ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Title>The mapping can change once the running batch finishes or is stopped.</Alert.Title>
        </Alert.Root>
      ) : null}
      <TableScroll label="Column mapping" borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-label="Column mapping">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="12">Column</Table.ColumnHeader>
              <Table.ColumnHeader>Header in the sheet</Table.ColumnHeader>
              <Table.ColumnHeader minW="64">Imported as</Table.ColumnHeader>
              <Table.ColumnHeader>How a cell is read</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row
                key={row.index}
                data-testid="mapping-row"
                data-unmapped={row.target === null ? '' : undefined}
                bg={row.target === null ? 'orange.subtle' : undefined}
              >
                <Table.Cell fontFamily="mono">{columnLetter(row.index)}</Table.Cell>
                <Table.Cell>
                  <Text fontWeight="medium">{row.header || '(no header)'}</Text>
                  {row.target === null ? (
                    <Text fontSize="xs" color="orange.fg">
                      Not imported
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell>
                  <TargetSelect
                    row={row}
                    options={options}
                    disabled={disabled}
                    onChange={(target) =>
                      setRows((current) =>
                        current.map((other) => (other.index === row.index ? { ...other, target } : other)),
                      )
                    }
                  />
                </Table.Cell>
                <Table.Cell fontSize="xs" color="fg.muted" whiteSpace="normal" minW="48" maxW="xs">
                  {row.target ? (hints.get(row.target) ?? '') : 'This column is left out.'}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      <Text fontSize="xs" color="fg.muted">
        * needed to create a product.
      </Text>
      <MappingWarnings rows={rows} options={options} />
      <Field.Root>
        <Field.Label>When a cell is blank in a row that updates a product</Field.Label>
        <RadioChoices
          label="Blank cells"
          values={blankPolicies}
          labels={blankPolicyLabels}
          value={policy}
          onChange={setPolicy}
          disabled={disabled}
          tour="blank-policy"
        />
      </Field.Root>
      <Checkbox.Root
        checked={remember}
        onCheckedChange={(event) => setRemember(event.checked === true)}
        disabled={disabled}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Remember this mapping for this seller</Checkbox.Label>
      </Checkbox.Root>
      <FormMessage status="error">{reprocess.isError ? getErrorMessage(reprocess.error) : null}</FormMessage>
      <HStack gap="2">
        <Button
          colorPalette="brand"
          onClick={apply}
          loading={reprocess.isPending}
          disabled={disabled || blocksApplying(problems)}
          data-tour="apply-mapping"
        >
          Apply and revalidate
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setRows(original);
            setPolicy(batch.blankPolicy);
          }}
          disabled={!changed || disabled}
        >
          <RotateCcw /> Undo changes
        </Button>
      </HStack>
      {!canEdit ? (
        <Text fontSize="sm" color="fg.muted">
          You may look at the mapping; changing it needs the permission to import.
        </Text>
      ) : null}
    </Stack>
  );
}

/** The mapping section: the targets the seller's catalogue offers, then the editor over them. */
export function MappingSection({ item, canEdit }: { item: Import; canEdit: boolean }) {
  const targets = useMappingTargets(item.sellerId);
  if (targets.isError)
    return <ErrorState message={getErrorMessage(targets.error)} onRetry={() => targets.refetch()} />;
  if (!targets.data) return <LoadingState rows={6} label="Loading the mapping" />;
  return (
    <Box>
      <Heading size="sm" mb="3">
        {plural(item.headers.length, 'column')} in the sheet
      </Heading>
      {/* A new batch (its own mapping) starts the editor afresh. */}
      <MappingEditor key={item.batch.id} item={item} options={targets.data} canEdit={canEdit} />
    </Box>
  );
}
