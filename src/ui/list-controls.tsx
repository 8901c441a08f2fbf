// The small controls every server-paged list has beside its search box: how many rows a page shows,
// and refetching the list now. One of each, so every list words and labels them alike.
import { IconButton, NativeSelect } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';

/** "25 rows" — the page sizes a list offers; choosing one goes back to the first page (the caller's part). */
export function PageSizeSelect<Size extends number>({
  sizes,
  value,
  onChange,
  width = '28',
  suffix = ' rows',
}: {
  sizes: readonly Size[];
  value: Size;
  onChange: (size: Size) => void;
  width?: string;
  /** After each number in the menu; '' where a "Rows per page" label stands beside it. */
  suffix?: string;
}) {
  return (
    <NativeSelect.Root size="sm" width={width}>
      <NativeSelect.Field
        aria-label="Rows per page"
        value={value}
        onChange={(event) => onChange(Number(event.target.value) as Size)}
      >
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size}
            {suffix}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** Refetches a list; spins while a refetch (not the first load) runs. */
export function RefreshButton({
  onRefresh,
  refreshing,
  label = 'Refresh',
}: {
  onRefresh: () => void;
  refreshing: boolean;
  label?: string;
}) {
  return (
    <IconButton variant="outline" aria-label={label} title="Refresh" onClick={onRefresh} loading={refreshing}>
      <RefreshCw />
    </IconButton>
  );
}
