import { Box, Button, Checkbox, Code, Flex, HStack, Stack, Switch, Table, Text } from '@chakra-ui/react';
import { Pencil } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatNumber, plural } from '../../../../contracts/domain/format';
import type { Import } from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { notify } from '../../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../../ui/page-states';
import { Pager } from '../../../ui/pager';
import { TableScroll } from '../../../ui/table-scroll';
import { isRunning, useApplySuggestedTitles, useSuggestedTitles } from '../shared/api';
import { isValidated } from '../shared/format';
import { NotValidated } from './NotValidated';
import { TitleTemplateDialog } from './TitleTemplateDialog';

const TITLES_PAGE_SIZE = 50;

/** Ticks on a page of suggestions; "every row on this page" ticks them all. */
function useLineSelection(lines: number[]) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const all = lines.length > 0 && lines.every((line) => selected.has(line));
  const some = lines.some((line) => selected.has(line));
  return {
    selected,
    allState: all ? true : some ? ('indeterminate' as const) : false,
    toggle: (line: number) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(line)) next.delete(line);
        else next.add(line);
        return next;
      }),
    toggleAll: (checked: boolean) => setSelected(checked ? new Set(lines) : new Set()),
    clear: () => setSelected(new Set()),
  };
}

/**
 * Suggested titles: the title the admin's template makes from each row's fields, next to the row's own.
 * Apply the ticked ones or every suggestion; "only rows without a title" narrows to the empty ones.
 */
export function TitlesSection({
  item,
  canApply,
  canEditTemplate,
}: {
  item: Import;
  canApply: boolean;
  canEditTemplate: boolean;
}) {
  const { batch } = item;
  const ready = isValidated(batch);
  const [onlyMissing, setOnlyMissing] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const titles = useSuggestedTitles(
    { batch: batch.id, onlyMissing, skip: (page - 1) * TITLES_PAGE_SIZE, limit: TITLES_PAGE_SIZE },
    ready,
  );
  const rows = titles.data?.result ?? [];
  const selection = useLineSelection(rows.map((row) => row.line));
  const apply = useApplySuggestedTitles();
  const busy = isRunning(batch.status) || apply.isPending;
  // Another filter or page is another set of rows: ticks do not carry over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset follows the filter and page
  useEffect(() => selection.clear(), [onlyMissing, page, batch.id]);

  if (!ready) return <NotValidated batch={batch} />;

  const run = (body: { lines?: number[]; all?: boolean }) =>
    apply.mutate(
      { batch: batch.id, onlyMissing, ...body },
      {
        onSuccess: (answer) => {
          selection.clear();
          notify({ type: 'success', title: `${plural(answer.applied, 'title')} applied` });
        },
      },
    );

  return (
    <Stack gap="4">
      <Flex gap="3" wrap="wrap" align="center">
        <Switch.Root
          checked={onlyMissing}
          onCheckedChange={(event) => {
            setOnlyMissing(event.checked);
            setPage(1);
          }}
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>Only rows without a title</Switch.Label>
        </Switch.Root>
        {titles.data ? (
          <Text fontSize="sm" color="fg.muted">
            Template: <Code>{titles.data.template}</Code>
          </Text>
        ) : null}
        <HStack gap="2" ms="auto">
          {canEditTemplate ? (
            <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
              <Pencil /> Edit template
            </Button>
          ) : null}
          {canApply ? (
            <>
              <Button
                size="sm"
                variant="outline"
                disabled={selection.selected.size === 0 || busy}
                loading={apply.isPending && apply.variables?.lines !== undefined}
                onClick={() => run({ lines: [...selection.selected] })}
              >
                Apply selected ({selection.selected.size})
              </Button>
              <Button
                size="sm"
                colorPalette="brand"
                disabled={rows.length === 0 || busy}
                loading={apply.isPending && apply.variables?.all === true}
                onClick={() => run({ all: true })}
              >
                Apply to all{titles.data ? ` (${formatNumber(titles.data.count)})` : ''}
              </Button>
            </>
          ) : null}
        </HStack>
      </Flex>
      {titles.isError ? (
        <ErrorState message={getErrorMessage(titles.error)} onRetry={() => titles.refetch()} />
      ) : !titles.data ? (
        <LoadingState rows={5} label="Loading suggested titles" />
      ) : rows.length === 0 ? (
        <EmptyMessage
          title="No title to suggest"
          description={
            onlyMissing
              ? 'Every row has a title.'
              : 'Every row’s title already reads as the template suggests, or the rows lack the fields it names.'
          }
        />
      ) : (
        <Box opacity={titles.isPlaceholderData ? 0.6 : 1}>
          <TableScroll label="Suggested titles" borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Suggested titles">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader w="8">
                    {canApply ? (
                      <Checkbox.Root
                        size="sm"
                        checked={selection.allState}
                        onCheckedChange={(event) => selection.toggleAll(event.checked === true)}
                        aria-label="Select every row on this page"
                      >
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                      </Checkbox.Root>
                    ) : null}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader w="16" textAlign="end">
                    Line
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader>Current title</Table.ColumnHeader>
                  <Table.ColumnHeader>Suggested title</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.line} data-testid="title-row">
                    <Table.Cell>
                      {canApply ? (
                        <Checkbox.Root
                          size="sm"
                          checked={selection.selected.has(row.line)}
                          onCheckedChange={() => selection.toggle(row.line)}
                          aria-label={`Select line ${row.line}`}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                        </Checkbox.Root>
                      ) : null}
                    </Table.Cell>
                    <Table.Cell textAlign="end">{row.line}</Table.Cell>
                    <Table.Cell fontFamily="mono" fontSize="xs">
                      {row.sku}
                    </Table.Cell>
                    <Table.Cell color={row.current ? undefined : 'fg.muted'}>
                      {row.current || '(none)'}
                    </Table.Cell>
                    <Table.Cell fontWeight="medium">{row.suggested}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </TableScroll>
          <Pager
            skip={(page - 1) * TITLES_PAGE_SIZE}
            limit={TITLES_PAGE_SIZE}
            count={titles.data.count}
            onSkipChange={(skip) => setPage(Math.floor(skip / TITLES_PAGE_SIZE) + 1)}
            label="Suggested title pages"
          />
        </Box>
      )}
      {editing ? <TitleTemplateDialog onClose={() => setEditing(false)} /> : null}
    </Stack>
  );
}
