// An invoice's lines typed by hand: what it is, how many, the unit price (in the currency's major units,
// as a person writes it), the tax rate and an optional discount. The server computes each line's net, tax
// and total; this only turns what was typed into the API's integer minor units.
import { Button, IconButton, Input, Stack, Table, Text } from '@chakra-ui/react';
import { Plus, Trash2 } from 'lucide-react';
import type { InvoiceLineInput } from '../../../contracts/invoices';
import { minorOf } from '../../lib/money';
import { TableScroll } from '../../ui/table-scroll';

export interface InvoiceLineForm {
  key: string;
  name: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  discount: string;
}

let nextKey = 0;
export const emptyLine = (): InvoiceLineForm => ({
  key: `line-${++nextKey}`,
  name: '',
  quantity: '1',
  unitPrice: '',
  taxRate: '',
  discount: '',
});

/** A number as typed, or NaN when it is not one (an empty field too). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

/**
 * The lines in the API's units, with the problems of what cannot be read as a number by
 * `lines.{index}.{field}` (the schema checks the rest: names, ranges).
 */
export function linesInput(
  lines: readonly InvoiceLineForm[],
  currency: string,
): { lines: InvoiceLineInput[]; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const out = lines.map((line, index) => {
    const at = (field: string, message: string) => {
      problems[`lines.${index}.${field}`] ??= message;
    };
    const quantity = numberOf(line.quantity);
    if (!Number.isInteger(quantity)) at('quantity', 'A quantity is a whole number.');
    const price = minorOf(line.unitPrice, currency);
    if (typeof price === 'string') at('unitPriceMinor', price);
    const taxRate = numberOf(line.taxRate);
    if (!Number.isFinite(taxRate)) at('taxRate', 'A tax rate is 0–100 %.');
    const discount = line.discount.trim() === '' ? 0 : minorOf(line.discount, currency);
    if (typeof discount === 'string') at('discountMinor', discount);
    return {
      name: line.name,
      sku: '',
      quantity: Number.isInteger(quantity) ? quantity : 0,
      unitPriceMinor: typeof price === 'number' ? price : 0,
      discountMinor: typeof discount === 'number' ? discount : 0,
      taxRate: Number.isFinite(taxRate) ? taxRate : 0,
    };
  });
  return { lines: out, problems };
}

const COLUMNS: [keyof InvoiceLineForm, string, string, 'text' | 'decimal' | 'numeric'][] = [
  ['name', 'Description', 'name', 'text'],
  ['quantity', 'Quantity', 'quantity', 'numeric'],
  ['unitPrice', 'Unit price', 'unitPriceMinor', 'decimal'],
  ['taxRate', 'Tax rate %', 'taxRate', 'decimal'],
  ['discount', 'Discount', 'discountMinor', 'decimal'],
];

export function InvoiceLinesEditor({
  lines,
  currency,
  errors,
  onChange,
}: {
  lines: InvoiceLineForm[];
  currency: string;
  /** Messages by `lines.{index}.{field}`. */
  errors: Partial<Record<string, string>>;
  onChange: (lines: InvoiceLineForm[]) => void;
}) {
  const update = (key: string, patch: Partial<InvoiceLineForm>) =>
    onChange(lines.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  return (
    <Stack gap="3">
      {lines.length ? (
        <TableScroll label="Invoice lines">
          <Table.Root size="sm" aria-label="Invoice lines">
            <Table.Header>
              <Table.Row>
                {COLUMNS.map(([field, label]) => (
                  <Table.ColumnHeader key={field} minW={field === 'name' ? '48' : '24'}>
                    {field === 'unitPrice' || field === 'discount' ? `${label} (${currency || '—'})` : label}
                  </Table.ColumnHeader>
                ))}
                <Table.ColumnHeader width="12">
                  <Text srOnly>Remove</Text>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line, index) => (
                <Table.Row key={line.key}>
                  {COLUMNS.map(([field, label, errorField, mode]) => {
                    const error = errors[`lines.${index}.${errorField}`];
                    const id = `${line.key}-${field}`;
                    return (
                      <Table.Cell key={field} verticalAlign="top">
                        <Input
                          id={id}
                          size="sm"
                          inputMode={mode}
                          aria-label={`Line ${index + 1}: ${label}`}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          maxLength={field === 'name' ? 300 : 20}
                          placeholder={field === 'discount' ? '0' : undefined}
                          value={line[field]}
                          onChange={(event) => update(line.key, { [field]: event.target.value })}
                        />
                        {error ? (
                          <Text id={`${id}-error`} fontSize="xs" color="fg.error" mt="1">
                            {error}
                          </Text>
                        ) : null}
                      </Table.Cell>
                    );
                  })}
                  <Table.Cell verticalAlign="top">
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove line ${index + 1}`}
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
          No lines yet.
        </Text>
      )}
      <div>
        <Button size="sm" variant="outline" onClick={() => onChange([...lines, emptyLine()])}>
          <Plus /> Add line
        </Button>
      </div>
    </Stack>
  );
}
