import { Badge, Tabs } from '@chakra-ui/react';
import type { ReactNode } from 'react';

const ALL = 'all';

/**
 * A list's status tabs: "All" then one tab per status, each with the count the server maintains (none
 * while the first page loads). The list is the selected tab's panel; every tab has its panel, the
 * others empty (the list is one server query), so each tab controls a panel that exists.
 */
export function StatusTabs<Status extends string>({
  label,
  statuses,
  labels,
  value,
  counts,
  onChange,
  tour,
  children,
}: {
  /** The tab list's name, e.g. "Query status". */
  label: string;
  statuses: readonly Status[];
  labels: Record<Status, string>;
  /** null: All. */
  value: Status | null;
  counts: Record<Status, number> | undefined;
  onChange: (status: Status | null) => void;
  tour?: string;
  children: ReactNode;
}) {
  const count = (n: number | undefined) =>
    n === undefined ? null : (
      <Badge variant="subtle" size="sm" ms="1">
        {n}
      </Badge>
    );
  const total = counts ? statuses.reduce((sum, status) => sum + counts[status], 0) : undefined;
  const current = value ?? ALL;
  return (
    <Tabs.Root
      value={current}
      onValueChange={(details) => onChange(details.value === ALL ? null : (details.value as Status))}
      colorPalette="brand"
    >
      <Tabs.List aria-label={label} flexWrap="wrap" mb="3" data-tour={tour}>
        <Tabs.Trigger value={ALL}>All {count(total)}</Tabs.Trigger>
        {statuses.map((status) => (
          <Tabs.Trigger key={status} value={status}>
            {labels[status]} {count(counts?.[status])}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {[ALL, ...statuses].map((tab) => (
        <Tabs.Content key={tab} value={tab} pt="0">
          {tab === current ? children : null}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
