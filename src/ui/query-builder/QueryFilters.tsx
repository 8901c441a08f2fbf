// The filter row's toggle and the panel it opens, as every list with a query builder shows them: the
// button counts the top-level conditions, the panel waits for the list's fields before it shows a builder.
import { Badge, Box, Button, Collapsible, Text } from '@chakra-ui/react';
import { Filter } from 'lucide-react';
import type { ReactNode } from 'react';
import { getErrorMessage } from '../../services/http';
import { ErrorState } from '../page-states';

export function FiltersButton({
  open,
  count,
  onToggle,
  tour,
}: {
  open: boolean;
  /** How many conditions the applied query holds at its top level (shown when not 0). */
  count: number;
  onToggle: () => void;
  tour: string;
}) {
  return (
    <Button variant={open ? 'subtle' : 'outline'} onClick={onToggle} aria-expanded={open} data-tour={tour}>
      <Filter /> Filters
      {count ? <Badge colorPalette="brand">{count}</Badge> : null}
    </Button>
  );
}

/** The list's field definitions as a query gives them: failed, loaded, or still on their way. */
type FieldsQuery<F> = { data: F | undefined; isError: boolean; error: unknown; refetch: () => unknown };

export function FiltersPanel<F>({
  open,
  fields,
  tour,
  children,
}: {
  open: boolean;
  fields: FieldsQuery<F>;
  tour?: string;
  /** The builder, once the fields are there. */
  children: (fields: F) => ReactNode;
}) {
  return (
    <Collapsible.Root open={open}>
      <Collapsible.Content>
        <Box borderWidth="1px" rounded="md" p="3" mb="3" data-tour={tour}>
          {fields.isError ? (
            <ErrorState message={getErrorMessage(fields.error)} onRetry={() => fields.refetch()} />
          ) : fields.data ? (
            children(fields.data)
          ) : (
            <Text color="fg.muted">Loading the fields…</Text>
          )}
        </Box>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
