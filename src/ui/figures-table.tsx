import { Table } from '@chakra-ui/react';
import type { Key, ReactNode } from 'react';

/** One column of a figures table: its header and its cell; numbers are right-aligned. */
export interface FigureColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/**
 * The numbers beside a chart (or a small summary): a plain small table drawn from its columns, so each
 * panel says only what its columns are. `headless` leaves out the header row for a two-column list
 * whose labels speak for themselves.
 */
export function FiguresTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  headless = false,
}: {
  label: string;
  columns: readonly FigureColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  headless?: boolean;
}) {
  const align = (column: FigureColumn<Row>) => (column.numeric ? 'end' : undefined);
  return (
    <Table.Root size="sm" aria-label={label}>
      {headless ? null : (
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeader key={column.header} textAlign={align(column)}>
                {column.header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
      )}
      <Table.Body>
        {rows.map((row) => (
          <Table.Row key={rowKey(row)}>
            {columns.map((column) => (
              <Table.Cell key={column.header} textAlign={align(column)}>
                {column.cell(row)}
              </Table.Cell>
            ))}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
