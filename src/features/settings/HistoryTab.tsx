// The settings page's History tab: every change this user may see (their shop's for a seller, the
// marketplace's for staff, every scope for admins), filtered by section, person and days, paged on the
// server without a cap, one line per field before → after, and the same selection exported to a file.
// With a shop chosen in the page's "Settings of" switch (scope.tsx), only that shop's changes.
// The filters live in the URL (`hsection`, `huser`, `hfrom`, `hto`, `hpage`) beside the page's tab.
import { Button, Field, Flex, Heading, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { X } from 'lucide-react';
import { formatDateTime, plural } from '../../../contracts/domain/format';
import type { SettingsHistoryRow, StoredSection } from '../../../contracts/settings';
import { DateRangeFields } from '../../ui/date-range-fields';
import { PagedQueryTable } from '../../ui/paged-table';
import { TaskFileMenu } from '../../ui/task-file-menu';
import { useUrlView } from '../../ui/url-view';
import { type HistoryFilters, useSettingsHistoryPage, useSettingsOverview } from './api';
import { startHistoryExport, useHistoryActors } from './history-api';
import { useSettingsSellerId } from './scope';
import { fieldLabel, sectionTitles } from './section-words';
import { parseSettingsView, type SettingsView, settingsHref } from './url-state';

export const HISTORY_PAGE_SIZE = 25;
/** Longer values are cut in the table; the cell's title, and the export, hold them whole. */
const SHOWN_CHARS = 80;

type HistoryView = SettingsView['history'];

/** A stored value as text: strings as they are, yes / no, JSON for lists and objects. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return JSON.stringify(value);
}

function Value({ value }: { value: unknown }) {
  const text = valueText(value);
  const cut = text.length > SHOWN_CHARS;
  return (
    <Text
      as="span"
      title={cut ? text : undefined}
      wordBreak="break-word"
      color={text === '(none)' ? 'fg.muted' : undefined}
    >
      {cut ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text}
    </Text>
  );
}

const filtersOf = (view: HistoryView): HistoryFilters => ({
  section: view.section ?? undefined,
  userId: view.userId ?? undefined,
  from: view.from ?? undefined,
  to: view.to ?? undefined,
});

export function HistoryTab() {
  const { view, setView } = useUrlView(parseSettingsView, settingsHref);
  const history = view.history;
  const filters = filtersOf(history);
  const skip = (history.page - 1) * HISTORY_PAGE_SIZE;
  const page = useSettingsHistoryPage(filters, skip, HISTORY_PAGE_SIZE);
  const overview = useSettingsOverview();
  const actors = useHistoryActors();
  const sellerId = useSettingsSellerId();
  const sections = (overview.data?.sections ?? []).filter(
    (section): section is StoredSection => section !== 'profile',
  );
  const shops = new Map((actors.data?.sellers ?? []).map((shop) => [shop.id, shop.name]));
  // Only an admin looking at every scope sees shops' changes beside the marketplace's: name the scope.
  const showScope = overview.data?.scope.type === 'marketplace' && shops.size > 0;
  // Filters go back to the first page; the page's tab stays.
  const change = (patch: Partial<HistoryView>) => setView({ history: { ...history, page: 1, ...patch } });
  const filtered = Boolean(history.section || history.userId || history.from || history.to);
  const rangeError =
    history.from && history.to && history.from > history.to ? 'The first day comes after the last.' : null;
  return (
    <Stack gap="4">
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Stack gap="1">
          <Heading as="h2" size="lg">
            History
          </Heading>
          <Text color="fg.muted">
            Every change to these settings: who, when, and each field before → after.
          </Text>
        </Stack>
        <TaskFileMenu
          label="Export"
          preparingLabel="Preparing export…"
          size="sm"
          start={(format) => startHistoryExport(filters, format, sellerId)}
        />
      </HStack>
      <Flex
        as="form"
        role="search"
        aria-label="Filter the history"
        gap="3"
        wrap="wrap"
        align="flex-end"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field.Root width={{ base: 'full', md: '44' }}>
          <Field.Label>Section</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              value={history.section ?? ''}
              onChange={(event) => change({ section: (event.target.value || null) as StoredSection | null })}
            >
              <option value="">All sections</option>
              {sections.map((section) => (
                <option key={section} value={section}>
                  {sectionTitles[section]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root width={{ base: 'full', md: '56' }}>
          <Field.Label>Who</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              value={history.userId ?? ''}
              onChange={(event) => change({ userId: event.target.value || null })}
            >
              <option value="">Everyone</option>
              {(actors.data?.actors ?? []).map((actor) => (
                <option key={actor.id} value={actor.id}>
                  {actor.name}
                </option>
              ))}
              {/* A link may name someone not in the list (yet): keep the choice visible. */}
              {history.userId && actors.data && !actors.data.actors.some((a) => a.id === history.userId) ? (
                <option value={history.userId}>Someone else</option>
              ) : null}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <DateRangeFields from={history.from} to={history.to} error={rangeError} onChange={change} />
        {filtered ? (
          <Button
            variant="ghost"
            onClick={() => change({ section: null, userId: null, from: null, to: null })}
          >
            <X /> Clear filters
          </Button>
        ) : null}
      </Flex>
      <PagedQueryTable
        query={page}
        loadingLabel="Loading the history"
        empty={
          filtered
            ? { title: 'No change matches', description: 'Try another section, person or days.' }
            : {
                title: 'No changes yet',
                description: 'Each saved change appears here: who, when, and every field before → after.',
              }
        }
        label="Settings history"
        pagerLabel="History pages"
        framed
        skip={skip}
        limit={HISTORY_PAGE_SIZE}
        onSkipChange={(next) => setView({ history: { ...history, page: next / HISTORY_PAGE_SIZE + 1 } })}
        summary={
          page.data ? (
            <Text fontSize="sm" color="fg.muted">
              {plural(page.data.count, 'change')}
            </Text>
          ) : null
        }
        columns={
          <>
            <Table.ColumnHeader>When</Table.ColumnHeader>
            <Table.ColumnHeader>Who</Table.ColumnHeader>
            <Table.ColumnHeader>Section</Table.ColumnHeader>
            <Table.ColumnHeader>Field</Table.ColumnHeader>
            <Table.ColumnHeader>Before</Table.ColumnHeader>
            <Table.ColumnHeader>After</Table.ColumnHeader>
            <Table.ColumnHeader>Request id</Table.ColumnHeader>
          </>
        }
      >
        {(rows) => rows.map((row) => <EntryRows key={row.id} row={row} scope={showScope ? shops : null} />)}
      </PagedQueryTable>
    </Stack>
  );
}

/** Values wrap within a readable width instead of stretching the table. */
const valueCell = { whiteSpace: 'normal', minW: '10rem', maxW: '20rem' } as const;

/** One saved change: a line per field, the entry's own cells spanning them. */
function EntryRows({ row, scope }: { row: SettingsHistoryRow; scope: Map<string, string> | null }) {
  const section = row.section as StoredSection;
  const changes = row.changes.length > 0 ? row.changes : [null];
  const span = changes.length;
  return changes.map((change, index) => (
    <Table.Row key={change?.field ?? index} data-entry={row.id} verticalAlign="top">
      {index === 0 ? (
        <>
          <Table.Cell rowSpan={span} whiteSpace="nowrap">
            <time dateTime={row.at}>{formatDateTime(row.at)}</time>
          </Table.Cell>
          <Table.Cell rowSpan={span}>{row.actor.name || 'System'}</Table.Cell>
          <Table.Cell rowSpan={span}>
            {sectionTitles[section] ?? row.section}
            {scope ? (
              <Text fontSize="xs" color="fg.muted">
                {row.sellerId === null ? 'Marketplace' : (scope.get(row.sellerId) ?? 'A shop')}
              </Text>
            ) : null}
          </Table.Cell>
        </>
      ) : null}
      <Table.Cell>{change ? fieldLabel(section, change.field) : '—'}</Table.Cell>
      <Table.Cell {...valueCell}>{change ? <Value value={change.before} /> : null}</Table.Cell>
      <Table.Cell {...valueCell}>{change ? <Value value={change.after} /> : null}</Table.Cell>
      {index === 0 ? (
        <Table.Cell rowSpan={span} fontFamily="mono" fontSize="xs">
          {row.requestId ?? '—'}
        </Table.Cell>
      ) : null}
    </Table.Row>
  ));
}
