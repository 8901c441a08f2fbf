// An order's lines while they are written (a new order, an edit): catalog products chosen with the
// product picker, each with its quantity and an optional percent off. The server prices and taxes them.
import { HStack, IconButton, Input, Stack, Table, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import type { OrderLineInput } from '../../../contracts/orders';
import { ProductPicker } from '../../ui/product-picker';
import { TableScroll } from '../../ui/table-scroll';

export interface LineForm {
  key: string;
  productId: string;
  label: string;
  quantity: string;
  discountPercent: string;
}

/** The lines as the API takes them, or why one cannot be sent. */
export function linesBody(lines: readonly LineForm[]): OrderLineInput[] | string {
  if (lines.length === 0) return 'Add at least one product.';
  const body: OrderLineInput[] = [];
  for (const line of lines) {
    const quantity = Number(line.quantity);
    if (!Number.isInteger(quantity) || quantity < 1)
      return `${line.label}: a quantity is a whole number of at least 1.`;
    const percent = line.discountPercent.trim() === '' ? null : Number(line.discountPercent);
    if (percent !== null && (!Number.isFinite(percent) || percent < 0 || percent > 100))
      return `${line.label}: a discount is a percent from 0 to 100.`;
    body.push({ productId: line.productId, quantity, discountPercent: percent, discountMinor: null });
  }
  return body;
}

export function OrderLinesEditor({
  sellerId,
  lines,
  onChange,
  idPrefix,
}: {
  /** The seller whose products may be chosen (null: a seller's own). */
  sellerId: string | null;
  lines: LineForm[];
  onChange: (lines: LineForm[]) => void;
  idPrefix: string;
}) {
  const update = (key: string, patch: Partial<LineForm>) =>
    onChange(lines.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  return (
    <Stack gap="3">
      {lines.length ? (
        <TableScroll label="Order lines">
          <Table.Root size="sm" aria-label="Order lines">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Product</Table.ColumnHeader>
                <Table.ColumnHeader width="28">Quantity</Table.ColumnHeader>
                <Table.ColumnHeader width="28">% off</Table.ColumnHeader>
                <Table.ColumnHeader width="12">
                  <Text srOnly>Remove</Text>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line) => (
                <Table.Row key={line.key}>
                  <Table.Cell>
                    <Text overflowWrap="anywhere">{line.label}</Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Input
                      size="sm"
                      inputMode="numeric"
                      aria-label={`Quantity of ${line.label}`}
                      value={line.quantity}
                      onChange={(event) => update(line.key, { quantity: event.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <Input
                      size="sm"
                      inputMode="decimal"
                      aria-label={`Percent off ${line.label}`}
                      placeholder="0"
                      value={line.discountPercent}
                      onChange={(event) => update(line.key, { discountPercent: event.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove ${line.label}`}
                      onClick={() => onChange(lines.filter((other) => other.key !== line.key))}
                    >
                      <Trash2 />
                    </IconButton>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </TableScroll>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          No products yet.
        </Text>
      )}
      <HStack>
        <ProductPicker
          key={sellerId ?? 'own'}
          sellerId={sellerId}
          idPrefix={idPrefix}
          onAdd={(item) =>
            onChange([
              ...lines,
              { ...item, key: `${item.productId}-${Date.now()}-${lines.length}`, discountPercent: '' },
            ])
          }
        />
      </HStack>
    </Stack>
  );
}
