// The selected tag beside the tree: where it sits, its code, level, status and product counts, what can
// be done to it in the draft, and its history.
import { Badge, Box, Button, DataList, Heading, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { ArrowRightLeft, FolderPlus, Pencil, Plus, Trash2 } from 'lucide-react';
import { formatNumber } from '../../../contracts/domain/format';
import { type TagNodeWithPath, type TagTreeSource, tagStatusLabels } from '../../../contracts/tags';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { fetchTagNode, tagTreeKeys } from '../../services/tag-tree';
import { HistoryTimeline, type HistoryWords } from '../../ui/history-timeline';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { tagPathText } from '../../ui/tag-picker';
import { useNodeHistory } from './api';
import { statusPalette } from './format';

export type TagAction = 'addChild' | 'addSibling' | 'rename' | 'move' | 'delete';

export const tagHistoryWords: HistoryWords = {
  fieldLabel: (field) => ({ name: 'Name', code: 'Code', parent: 'Parent' })[field] ?? field,
  actionText: (entry) =>
    ({
      created: 'added the tag',
      updated: 'changed the tag',
      moved: 'moved the tag',
      deleted: 'deleted the tag',
    })[entry.action] ?? entry.action,
  formatValue: (value) => (value === null || value === undefined ? '—' : String(value)),
  // The server writes these notes as sentences (quoting names and publish notes itself).
  noteIsQuote: () => false,
};

export const useTagNode = (source: TagTreeSource, id: string | null) =>
  useQuery({
    queryKey: tagTreeKeys.node(source, id ?? ''),
    queryFn: ({ signal }) => fetchTagNode(source, id as string, signal),
    enabled: Boolean(id),
  });

function NodeHistory({ id }: { id: string }) {
  return (
    <HistoryTimeline
      history={useNodeHistory(id)}
      words={tagHistoryWords}
      emptyDescription="Changes to this tag in the draft appear here."
    />
  );
}

export function TagDetails({
  source,
  id,
  permissions,
  onAction,
}: {
  source: TagTreeSource;
  id: string;
  permissions: { create: boolean; edit: boolean; delete: boolean };
  onAction: (action: TagAction, node: TagNodeWithPath) => void;
}) {
  const node = useTagNode(source, id);
  if (node.isPending) return <LoadingState rows={3} label="Loading the tag" />;
  if (node.isError)
    return <ErrorState message={getErrorMessage(node.error)} onRetry={() => node.refetch()} />;
  const tag = node.data;
  const draft = source === 'draft';
  return (
    <Stack gap="4" data-testid="tag-details">
      <Stack gap="1">
        <HStack gap="2" wrap="wrap">
          <Heading size="lg" data-testid="tag-name">
            {tag.name}
          </Heading>
          {draft ? (
            <Badge colorPalette={statusPalette[tag.status]} data-testid="tag-status">
              {tagStatusLabels[tag.status]}
            </Badge>
          ) : null}
        </HStack>
        <Text fontSize="sm" color="fg.muted" data-testid="tag-path">
          {tagPathText(tag)}
        </Text>
      </Stack>
      <DataList.Root orientation="horizontal" size="sm">
        {(
          [
            ['Code', tag.code],
            ['Level', String(tag.level)],
            ['Child tags', formatNumber(tag.childrenCount)],
            ['Products', formatNumber(tag.productCount)],
            ['Products with the tags below', formatNumber(tag.productTotal)],
            [draft ? 'Last changed' : 'Published', `${relativeTime(tag.updatedAt)} by ${tag.updatedBy}`],
          ] as const
        ).map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {draft && (permissions.create || permissions.edit || permissions.delete) ? (
        <Wrap gap="2">
          {permissions.create ? (
            <>
              <Button size="sm" variant="outline" onClick={() => onAction('addChild', tag)}>
                <Plus /> Add child
              </Button>
              <Button size="sm" variant="outline" onClick={() => onAction('addSibling', tag)}>
                <FolderPlus /> Add sibling
              </Button>
            </>
          ) : null}
          {permissions.edit ? (
            <>
              <Button size="sm" variant="outline" onClick={() => onAction('rename', tag)}>
                <Pencil /> Rename
              </Button>
              <Button size="sm" variant="outline" onClick={() => onAction('move', tag)}>
                <ArrowRightLeft /> Move to…
              </Button>
            </>
          ) : null}
          {permissions.delete ? (
            <Button size="sm" variant="outline" colorPalette="red" onClick={() => onAction('delete', tag)}>
              <Trash2 /> Delete
            </Button>
          ) : null}
        </Wrap>
      ) : null}
      {draft ? (
        <Box>
          <Heading size="sm" mb="3">
            History
          </Heading>
          <NodeHistory id={tag.id} />
        </Box>
      ) : null}
    </Stack>
  );
}
