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
