import { Table } from '@chakra-ui/react';
import type { ComponentProps } from 'react';

/**
 * A list's row that opens its item when clicked anywhere. A link in it (the keyboard's way in) handles
 * its own click, and a middle click on it opens a tab.
 */
export function OpenableRow({ onOpen, ...row }: ComponentProps<typeof Table.Row> & { onOpen: () => void }) {
  return (
    <Table.Row
      cursor="pointer"
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('a')) onOpen();
      }}
      {...row}
    />
  );
}

/** Header cells by name; a null name (a column this user does not see) is left out. */
export function ColumnHeaders({ names }: { names: (string | null)[] }) {
  return (
    <>{names.map((name) => (name ? <Table.ColumnHeader key={name}>{name}</Table.ColumnHeader> : null))}</>
  );
}

/** What a list draws one openable row from: the item, where it opens, and the time "3 min ago" counts from. */
export interface OpenableRowProps<Item> {
  item: Item;
  showSeller: boolean;
  href: string;
  onOpen: () => void;
  now: Date;
}
