// A product's stock on its details page (issue 31): on hand, reserved by open orders, available, the
// low-stock threshold, an adjustment with a reason (a change or a count) and the latest moves: what
// changed, why, who and when.
import {
  Button,
  Card,
  DataList,
  Field,
  Heading,
  HStack,
  Input,
  NativeSelect,
  SegmentGroup,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import {
  type AdjustmentReason,
  adjustmentReasonLabels,
  adjustmentReasons,
  moveReasonLabels,
  type StockMove,
} from '../../../contracts/stock';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { TableScroll } from '../../ui/table-scroll';
import { useAdjustStock, useProductStock, useStockThreshold } from './stock-api';

const signed = (n: number) => (n > 0 ? `+${formatNumber(n)}` : formatNumber(n));

function moveText(move: StockMove) {
  const parts = [];
  if (move.onHandDelta) parts.push(`on hand ${signed(move.onHandDelta)}`);
  if (move.reservedDelta) parts.push(`reserved ${signed(move.reservedDelta)}`);
  return parts.join(', ') || 'no change';
}

function AdjustDialog({
  productId,
  open,
  onClose,
}: {
  productId: string;
  open: boolean;
  onClose: () => void;
}) {
  const adjust = useAdjustStock(productId);
  const [mode, setMode] = useState<'change' | 'count'>('change');
  const [reason, setReason] = useState<AdjustmentReason>('correction');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(value)) {
      setError(
        mode === 'count'
          ? 'Enter the counted units, a whole number.'
          : 'Enter a whole number of units, e.g. 5 or -2.',
      );
      return;
    }
    adjust.mutate(mode === 'count' ? { reason, counted: value, note } : { reason, delta: value, note }, {
      onSuccess: (stock) => {
        notify({ type: 'success', title: `Stock saved: ${formatNumber(stock.onHand)} on hand.` });
        setAmount('');
        setNote('');
        setError(null);
        onClose();
      },
      onError: (failure) => setError(getErrorMessage(failure)),
    });
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      title="Adjust stock"
      submitLabel="Save"
      pending={adjust.isPending}
    >
      <SegmentGroup.Root
        value={mode}
        onValueChange={(details) => details.value && setMode(details.value as 'change' | 'count')}
        aria-label="How to adjust"
        size="sm"
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items
          items={[
            { value: 'change', label: 'Change by' },
            { value: 'count', label: 'Set to a count' },
          ]}
        />
      </SegmentGroup.Root>
      <Field.Root required invalid={Boolean(error)}>
        <Field.Label>{mode === 'count' ? 'Units counted' : 'Units (negative to remove)'}</Field.Label>
        <Input inputMode="numeric" value={amount} onChange={(event) => setAmount(event.target.value)} />
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
      <Field.Root required>
        <Field.Label>Reason</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            value={reason}
            onChange={(event) => setReason(event.target.value as AdjustmentReason)}
          >
            {adjustmentReasons.map((value) => (
              <option key={value} value={value}>
                {adjustmentReasonLabels[value]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Field.Root>
        <Field.Label>Note</Field.Label>
        <Input value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
      </Field.Root>
    </FormDialog>
  );
}

function ThresholdDialog({
  productId,
  current,
  open,
  onClose,
}: {
  productId: string;
  current: number;
  open: boolean;
  onClose: () => void;
}) {
  const save = useStockThreshold(productId);
  const [value, setValue] = useState(String(current));
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const threshold = Number(value);
    if (value.trim() === '' || !Number.isInteger(threshold) || threshold < 0) {
      setError('Enter a whole number, 0 or more (0: never tell).');
      return;
    }
    save.mutate(threshold, {
      onSuccess: () => {
        notify({ type: 'success', title: 'Low-stock threshold saved.' });
        setError(null);
        onClose();
      },
      onError: (failure) => setError(getErrorMessage(failure)),
    });
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      title="Low-stock threshold"
      submitLabel="Save"
      pending={save.isPending}
    >
      <Field.Root required invalid={Boolean(error)}>
        <Field.Label>Tell the seller when available falls to</Field.Label>
        <Input inputMode="numeric" value={value} onChange={(event) => setValue(event.target.value)} />
        <Field.HelperText>0 turns the notice off.</Field.HelperText>
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

export function StockCard({ productId, canEdit }: { productId: string; canEdit: boolean }) {
  const stock = useProductStock(productId);
  const [dialog, setDialog] = useState<'adjust' | 'threshold' | null>(null);
  return (
    <Card.Root data-testid="stock-card">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading size="sm">Stock</Heading>
          {canEdit && stock.data ? (
            <HStack gap="2">
              <Button size="xs" variant="outline" onClick={() => setDialog('threshold')}>
                Low-stock threshold
              </Button>
              <Button size="xs" colorPalette="brand" onClick={() => setDialog('adjust')}>
                Adjust stock
              </Button>
            </HStack>
          ) : null}
        </HStack>
      </Card.Header>
      <Card.Body>
        {stock.isPending ? (
          <LoadingState rows={2} label="Loading the stock" />
        ) : stock.isError ? (
          <ErrorState message={getErrorMessage(stock.error)} onRetry={() => stock.refetch()} />
        ) : (
          <Stack gap="4">
            <DataList.Root orientation="horizontal" size="sm">
              {(
                [
                  ['On hand', stock.data.onHand],
                  ['Reserved by open orders', stock.data.reserved],
                  ['Available', stock.data.available],
                  ['Low-stock threshold', stock.data.lowStockThreshold],
                ] as const
              ).map(([name, value]) => (
                <DataList.Item key={name}>
                  <DataList.ItemLabel>{name}</DataList.ItemLabel>
                  <DataList.ItemValue data-testid={`stock-${name.split(' ')[0]!.toLowerCase()}`}>
                    {name === 'Low-stock threshold' && value === 0 ? 'Off' : formatNumber(value)}
                  </DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
            {stock.data.moves.length === 0 ? (
              <Text color="fg.muted" fontSize="sm">
                No stock moves yet.
              </Text>
            ) : (
              <TableScroll label="Stock moves">
                <Table.Root size="sm" aria-label="Stock moves">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>When</Table.ColumnHeader>
                      <Table.ColumnHeader>Why</Table.ColumnHeader>
                      <Table.ColumnHeader>Change</Table.ColumnHeader>
                      <Table.ColumnHeader>Who</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {stock.data.moves.map((move) => (
                      <Table.Row key={move.id}>
                        <Table.Cell whiteSpace="nowrap">{formatDateTime(move.createdAt)}</Table.Cell>
                        <Table.Cell>
                          {moveReasonLabels[move.reason] ?? move.reason}
                          {move.note ? (
                            <Text as="span" color="fg.muted">
                              {` · ${move.note}`}
                            </Text>
                          ) : null}
                        </Table.Cell>
                        <Table.Cell>{moveText(move)}</Table.Cell>
                        <Table.Cell>{move.actorName || 'System'}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </TableScroll>
            )}
          </Stack>
        )}
      </Card.Body>
      {dialog === 'adjust' ? (
        <AdjustDialog productId={productId} open onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'threshold' && stock.data ? (
        <ThresholdDialog
          productId={productId}
          current={stock.data.lowStockThreshold}
          open
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Card.Root>
  );
}
