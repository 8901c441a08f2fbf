import { Table, Text } from '@chakra-ui/react';

/** A list row's customer: the name, the e-mail under it, both cut to the column (the whole on hover). */
export function CustomerCell({ name, email }: { name: string; email: string }) {
  return (
    <Table.Cell>
      <Text truncate maxW="56" title={`${name} <${email}>`}>
        {name}
      </Text>
      <Text truncate maxW="56" fontSize="xs" color="fg.muted">
        {email}
      </Text>
    </Table.Cell>
  );
}
