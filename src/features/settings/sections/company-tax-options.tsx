// The tax options the marketplace offers (SPEC §9's table, seeded: CA GST/HST/PST, DE standard, reduced,
// small business and import, BR ICMS/ISS…), edited as a table: a name, a rate in percent and a country.
import { Box, Button, IconButton, Input, Table } from '@chakra-ui/react';
import { Plus, Trash2 } from 'lucide-react';

export interface TaxOptionRow {
  id: string;
  label: string;
  value: number;
  country: string;
}

export function TaxOptionsTable({
  id,
  rows,
  disabled,
  onChange,
}: {
  id: string;
  rows: readonly TaxOptionRow[];
  disabled: boolean;
  onChange: (rows: TaxOptionRow[]) => void;
}) {
  const update = (index: number, row: TaxOptionRow) =>
    onChange(rows.map((current, i) => (i === index ? row : current)));
  return (
    <Box id={id}>
      <Table.ScrollArea borderWidth="1px" borderRadius="md">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Rate (%)</Table.ColumnHeader>
              <Table.ColumnHeader>Country</Table.ColumnHeader>
              <Table.ColumnHeader>
                <Box srOnly>Actions</Box>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row, index) => (
              <Table.Row key={row.id}>
                <Table.Cell>
                  <Input
                    size="sm"
                    aria-label={`Name of tax ${index + 1}`}
                    value={row.label}
                    disabled={disabled}
                    onChange={(event) => update(index, { ...row, label: event.target.value })}
                  />
                </Table.Cell>
                <Table.Cell>
                  <Input
                    size="sm"
                    type="number"
                    min={0}
                    max={100}
                    step="0.01"
                    aria-label={`Rate of ${row.label || `tax ${index + 1}`} in percent`}
                    value={String(row.value)}
                    disabled={disabled}
                    onChange={(event) => update(index, { ...row, value: Number(event.target.value) })}
                  />
                </Table.Cell>
                <Table.Cell>
                  <Input
                    size="sm"
                    maxLength={2}
                    aria-label={`Country of ${row.label || `tax ${index + 1}`}`}
                    value={row.country}
                    disabled={disabled}
                    onChange={(event) => update(index, { ...row, country: event.target.value.toUpperCase() })}
                  />
                </Table.Cell>
                <Table.Cell>
                  {disabled ? null : (
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove ${row.label || `tax ${index + 1}`}`}
                      onClick={() => onChange(rows.filter((_, i) => i !== index))}
                    >
                      <Trash2 />
                    </IconButton>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {disabled ? null : (
        <Button
          mt="2"
          size="xs"
          variant="ghost"
          onClick={() =>
            onChange([...rows, { id: `custom-${Date.now().toString(36)}`, label: '', value: 0, country: '' }])
          }
        >
          <Plus /> Add tax
        </Button>
      )}
    </Box>
  );
}
