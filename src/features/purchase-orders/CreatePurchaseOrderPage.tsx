import {
  Button,
  Card,
  Field,
  Heading,
  HStack,
  IconButton,
  Input,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import { toleranceText } from '../../../contracts/domain/purchase-order-state';
import {
  type CreatePurchaseOrderBody,
  createPurchaseOrderBodySchema,
  PURCHASE_ORDERS_ROUTE,
  purchaseOrderPageLink,
} from '../../../contracts/purchase-orders';
import { minorOf, money } from '../../lib/money';
import { useClientSettings } from '../../services/client-settings';
import { getErrorMessage } from '../../services/http';
import { SellerChooser } from '../../ui/choosers';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { PageHeader } from '../../ui/page-states';
import { ProductPicker } from '../../ui/product-picker';
import { TableScroll } from '../../ui/table-scroll';
import { useCreatePurchaseOrder, useSupplierList } from './api';

type Errors = Partial<Record<string, string>>;

interface LineForm {
  key: string;
  productId: string;
  label: string;
  quantity: string;
  /** What one unit costs, in major units as typed ("12.50"). */
  unitCost: string;
}

/** A line's quantity as typed: a number for the contract's check (NaN when it is none). */
const quantityOf = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN);

/** Line total for reading, when the line can be read: quantity × unit cost in minor units. */
function lineTotal(line: LineForm, currency: string): string {
  const quantity = quantityOf(line.quantity);
  const unit = currency ? minorOf(line.unitCost, currency) : 'no currency';
  if (!Number.isInteger(quantity) || quantity < 1 || typeof unit === 'string') return '—';
  return money(quantity * unit, currency);
}

/**
 * The lines as the contract takes them, with the problems zod cannot word (a cost that is not a price,
 * a quantity that is not a number), each named after its product.
 */
function linesOf(lines: readonly LineForm[], currency: string) {
  const problems: string[] = [];
  const body = lines.map((line) => {
    const quantity = quantityOf(line.quantity);
    if (Number.isNaN(quantity)) problems.push(`${line.label}: a quantity is a whole number of at least 1.`);
    const unitCostMinor = currency ? minorOf(line.unitCost, currency) : 0;
    if (typeof unitCostMinor === 'string') problems.push(`${line.label}: ${unitCostMinor}`);
    return {
      productId: line.productId,
      quantity: Number.isNaN(quantity) ? 1 : quantity,
      unitCostMinor: typeof unitCostMinor === 'string' ? 0 : unitCostMinor,
    };
  });
  return { body, problem: problems[0] ?? null };
}

/** zod issues as messages by field; a line's issue is named after its product. */
function messagesOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  lines: readonly LineForm[],
): Errors {
  const out: Errors = {};
  for (const issue of issues) {
    const [field, index] = issue.path;
    const key = String(field ?? 'form');
    const line = field === 'lines' && typeof index === 'number' ? lines[index] : undefined;
    out[key] ??= line ? `${line.label}: ${issue.message}` : issue.message;
  }
  return out;
}

function LinesEditor({
  sellerId,
  currency,
  lines,
  onChange,
}: {
  sellerId: string;
  currency: string;
  lines: LineForm[];
  onChange: (lines: LineForm[]) => void;
}) {
  const update = (key: string, patch: Partial<LineForm>) =>
    onChange(lines.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  return (
    <Stack gap="3">
      {lines.length ? (
        <TableScroll label="Purchase order lines">
          <Table.Root size="sm" aria-label="Purchase order lines">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Product</Table.ColumnHeader>
                <Table.ColumnHeader width="28">Quantity</Table.ColumnHeader>
                <Table.ColumnHeader width="36">
                  Unit cost{currency ? ` (${currency})` : ''}
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Line total</Table.ColumnHeader>
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
                      aria-label={`Unit cost of ${line.label}`}
                      placeholder="0.00"
                      value={line.unitCost}
                      onChange={(event) => update(line.key, { unitCost: event.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap">
                    {lineTotal(line, currency)}
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
      <ProductPicker
        key={sellerId}
        sellerId={sellerId}
        idPrefix="new-po"
        onAdd={(item) =>
          onChange([
            ...lines,
            { ...item, key: `${item.productId}-${Date.now()}-${lines.length}`, unitCost: '' },
          ])
        }
      />
    </Stack>
  );
}

/**
 * New purchase order (`/orders/create-new-purchase-order`, issue 31): the supplier, the shop whose stock
 * it is, the currency (the supplier's unless changed), when the goods are expected, and the products
 * of that shop with their quantities and unit costs. It is saved as a draft; its page sends it.
 */
export default function CreatePurchaseOrderPage() {
  const settings = useClientSettings().data;
  const suppliers = useSupplierList({ activeOnly: 'true', limit: 100 });
  const [, navigate] = useLocation();
  const create = useCreatePurchaseOrder();
  const [supplierId, setSupplierId] = useState('');
  const [sellerId, setSellerId] = useState('');
  const [currency, setCurrency] = useState('');
  const [expectedOn, setExpectedOn] = useState('');
  const [notes, setNotes] = useState('');
  const [lines, setLines] = useState<LineForm[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const supplier = suppliers.data?.result.find((found) => found.id === supplierId) ?? null;
  const chosenCurrency = currency || supplier?.currency || '';
  const currencies = [
    ...new Set([...(chosenCurrency ? [chosenCurrency] : []), ...(settings?.currencies ?? [])]),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, problem } = linesOf(lines, chosenCurrency);
    const checked = createPurchaseOrderBodySchema.safeParse({
      supplierId,
      sellerId,
      currency: chosenCurrency,
      expectedOn: expectedOn || null,
      notes,
      lines: body,
    });
    const problems: Errors = checked.success ? {} : messagesOf(checked.error.issues, lines);
    if (problem) problems.lines = problem;
    setErrors(problems);
    if (!checked.success || Object.keys(problems).length) return;
    create.mutate(checked.data as CreatePurchaseOrderBody, {
      onSuccess: (po) => navigate(purchaseOrderPageLink(po.id)),
    });
  };

  return (
    <>
      <PageHeader
        title="New purchase order"
        description="Order stock of one shop’s products from a supplier. It is saved as a draft; send it to the supplier from its page."
      />
      <form onSubmit={submit} noValidate aria-label="New purchase order">
        <Stack gap="4" maxW="5xl">
          <Card.Root size="sm" data-tour="po-parties">
            <Card.Header>
              <Heading as="h2" size="sm">
                Supplier and shop
              </Heading>
            </Card.Header>
            <Card.Body>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                <Field.Root required invalid={Boolean(errors.supplierId)}>
                  <Field.Label htmlFor="new-po-supplier">
                    Supplier <Field.RequiredIndicator />
                  </Field.Label>
                  <OptionSelect
                    id="new-po-supplier"
                    blank={suppliers.isPending ? 'Loading the suppliers…' : 'Choose a supplier'}
                    value={supplierId}
                    options={(suppliers.data?.result ?? []).map((found) => ({
                      value: found.id,
                      label: found.name,
                    }))}
                    onChange={(next) => {
                      setSupplierId(next);
                      // A new supplier brings its own currency.
                      setCurrency('');
                    }}
                  />
                  {supplier ? (
                    <Field.HelperText>
                      Mailed to {supplier.email}; deliveries within {toleranceText(supplier.tolerance)} count
                      as complete.
                    </Field.HelperText>
                  ) : null}
                  <Field.ErrorText>{errors.supplierId}</Field.ErrorText>
                </Field.Root>
                <Field.Root required invalid={Boolean(errors.sellerId)}>
                  <Field.Label htmlFor="new-po-seller">
                    Shop <Field.RequiredIndicator />
                  </Field.Label>
                  <SellerChooser
                    id="new-po-seller"
                    label="Shop"
                    blank="Choose the shop"
                    value={sellerId}
                    onChange={(next) => {
                      setSellerId(next);
                      setLines([]);
                    }}
                  />
                  <Field.HelperText>
                    The stock of this shop’s products rises when the goods arrive.
                  </Field.HelperText>
                  <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
                </Field.Root>
                <Field.Root required invalid={Boolean(errors.currency)}>
                  <Field.Label htmlFor="new-po-currency">
                    Currency <Field.RequiredIndicator />
                  </Field.Label>
                  <OptionSelect
                    id="new-po-currency"
                    blank={chosenCurrency ? undefined : 'Choose a currency'}
                    value={chosenCurrency}
                    options={currencies.map((code) => ({ value: code, label: code }))}
                    onChange={setCurrency}
                  />
                  <Field.HelperText>The supplier’s unless you choose another.</Field.HelperText>
                  <Field.ErrorText>{errors.currency}</Field.ErrorText>
                </Field.Root>
                <Field.Root invalid={Boolean(errors.expectedOn)}>
                  <Field.Label htmlFor="new-po-expected">Expected on</Field.Label>
                  <Input
                    id="new-po-expected"
                    type="date"
                    value={expectedOn}
                    onChange={(event) => setExpectedOn(event.target.value)}
                  />
                  <Field.ErrorText>{errors.expectedOn}</Field.ErrorText>
                </Field.Root>
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
          <Card.Root size="sm" data-tour="po-new-lines">
            <Card.Header>
              <Heading as="h2" size="sm">
                Products
              </Heading>
            </Card.Header>
            <Card.Body>
              <Stack gap="3">
                {sellerId ? (
                  <LinesEditor
                    sellerId={sellerId}
                    currency={chosenCurrency}
                    lines={lines}
                    onChange={setLines}
                  />
                ) : (
                  <FormMessage status="info">
                    Choose the shop first: a purchase order holds one shop’s products.
                  </FormMessage>
                )}
                <FormMessage status="error">{errors.lines ?? null}</FormMessage>
              </Stack>
            </Card.Body>
          </Card.Root>
          <Field.Root invalid={Boolean(errors.notes)}>
            <Field.Label htmlFor="new-po-notes">Notes for the supplier</Field.Label>
            <Textarea
              id="new-po-notes"
              rows={3}
              maxLength={5000}
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
            />
            <Field.HelperText>Printed on the PDF the supplier gets.</Field.HelperText>
            <Field.ErrorText>{errors.notes}</Field.ErrorText>
          </Field.Root>
          <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
          <HStack justify="end" gap="2">
            <Button asChild variant="outline">
              <RouterLink href={PURCHASE_ORDERS_ROUTE}>Cancel</RouterLink>
            </Button>
            <Button type="submit" colorPalette="brand" loading={create.isPending} data-tour="po-save">
              Save draft
            </Button>
          </HStack>
        </Stack>
      </form>
    </>
  );
}
