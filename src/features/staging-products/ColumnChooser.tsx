import { Box, Button, Checkbox, Input, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { Columns3 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { defaultProductColumns, productColumns } from '../../../contracts/catalog-actions';
import type { QueryField } from '../../../contracts/query-tree';

/**
 * Which columns the grid shows: the built-in ones and any attribute. A column ticked joins the end;
 * the grid then asks the server for that attribute's values only (never the whole metadata).
 */
export function ColumnChooser({
  columns,
  fields,
  onOpen,
  onChange,
}: {
  columns: string[];
  /** Attribute fields (loaded when the chooser first opens). */
  fields: QueryField[] | undefined;
  onOpen: () => void;
  onChange: (columns: string[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const attributes = useMemo(
    () =>
      (fields ?? [])
        .filter((field) => field.key.startsWith('attr.'))
        .filter((field) => field.label.toLowerCase().includes(filter.trim().toLowerCase())),
    [fields, filter],
  );
  const toggle = (key: string, on: boolean) =>
    onChange(on ? [...columns, key] : columns.filter((column) => column !== key));
  const box = (key: string, label: string) => (
    <Checkbox.Root
      key={key}
      size="sm"
      checked={columns.includes(key)}
      onCheckedChange={(event) => toggle(key, event.checked === true)}
      disabled={columns.length === 1 && columns.includes(key)}
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
  return (
    <Popover.Root positioning={{ placement: 'bottom-end' }} onOpenChange={(event) => event.open && onOpen()}>
      <Popover.Trigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 /> Columns
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {/* A popover is a dialog: it needs a name of its own. */}
          <Popover.Content w="72" aria-label="Columns">
            <Popover.Body>
              <Stack gap="3" maxH="96" overflowY="auto">
                <Text fontWeight="medium" fontSize="sm">
                  Product
                </Text>
                {productColumns.map((column) => box(column.key, column.label))}
                <Text fontWeight="medium" fontSize="sm" pt="2">
                  Attributes
                </Text>
                <Input
                  size="sm"
                  placeholder="Find an attribute"
                  aria-label="Find an attribute"
                  value={filter}
                  onChange={(event) => setFilter(event.target.value)}
                />
                {!fields ? (
                  <Text fontSize="sm" color="fg.muted">
                    Loading…
                  </Text>
                ) : attributes.length === 0 ? (
                  <Text fontSize="sm" color="fg.muted">
                    No attribute matches.
                  </Text>
                ) : (
                  attributes.map((field) =>
                    box(field.key, field.unit ? `${field.label} (${field.unit})` : field.label),
                  )
                )}
                <Box>
                  <Button size="xs" variant="ghost" onClick={() => onChange(defaultProductColumns)}>
                    Reset columns
                  </Button>
                </Box>
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
