// What differs between two trees, as the publish dialog and the history show it: the counts first,
// then each kind of change with the tags' paths (renames before → after, moves from → to).
import { Alert, Badge, Box, Heading, List, Stack, Text, Wrap } from '@chakra-ui/react';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { TagDiff } from '../../../contracts/tags';
import { diffTotal } from './format';

function Section({
  title,
  count,
  palette,
  children,
  testId,
}: {
  title: string;
  count: number;
  palette: string;
  children: React.ReactNode;
  testId: string;
}) {
  if (count === 0) return null;
  return (
    <Box data-testid={testId}>
      <Heading size="sm" mb="1.5">
        {title}{' '}
        <Badge colorPalette={palette} variant="subtle">
          {formatNumber(count)}
        </Badge>
      </Heading>
      <List.Root gap="1" fontSize="sm" ps="4">
        {children}
      </List.Root>
    </Box>
  );
}

export function DiffView({ diff }: { diff: TagDiff }) {
  const { counts } = diff;
  if (diffTotal(counts) === 0) {
    return (
      <Text color="fg.muted" data-testid="diff-empty">
        Nothing differs between {diff.from} and {diff.to}.
      </Text>
    );
  }
  return (
    <Stack gap="4" data-testid="tag-diff">
      <Wrap gap="2" aria-label="Changes">
        {counts.added ? <Badge colorPalette="green">{plural(counts.added, 'tag')} added</Badge> : null}
        {counts.removed ? <Badge colorPalette="red">{plural(counts.removed, 'tag')} removed</Badge> : null}
        {counts.renamed ? <Badge colorPalette="yellow">{plural(counts.renamed, 'tag')} renamed</Badge> : null}
        {counts.moved ? <Badge colorPalette="blue">{plural(counts.moved, 'tag')} moved</Badge> : null}
        {counts.recoded ? (
          <Badge colorPalette="gray">{plural(counts.recoded, 'new code', 'new codes')}</Badge>
        ) : null}
        <Badge variant="outline">{plural(diff.affectedProducts, 'product')} affected</Badge>
      </Wrap>
      {diff.truncated ? (
        <Alert.Root status="info" size="sm">
          <Alert.Indicator />
          <Alert.Title>Long lists show their first 500 entries; the counts are exact.</Alert.Title>
        </Alert.Root>
      ) : null}
      <Section title="Added" count={counts.added} palette="green" testId="diff-added">
        {diff.added.map((node) => (
          <List.Item key={node.id}>{node.path}</List.Item>
        ))}
      </Section>
      <Section title="Removed" count={counts.removed} palette="red" testId="diff-removed">
        {diff.removed.map((node) => (
          <List.Item key={node.id}>{node.path}</List.Item>
        ))}
      </Section>
      <Section title="Renamed" count={counts.renamed} palette="yellow" testId="diff-renamed">
        {diff.renamed.map((node) => (
          <List.Item key={node.id}>
            “{node.before}” → “{node.name}”{' '}
            <Text as="span" color="fg.muted">
              ({node.path})
            </Text>
          </List.Item>
        ))}
      </Section>
      <Section title="Moved" count={counts.moved} palette="blue" testId="diff-moved">
        {diff.moved.map((node) => (
          <List.Item key={node.id}>
            {node.name}: {node.fromPath} → {node.path}
          </List.Item>
        ))}
      </Section>
      <Section title="New codes" count={counts.recoded} palette="gray" testId="diff-recoded">
        {diff.recoded.map((node) => (
          <List.Item key={node.id}>
            {node.path}: {node.before} → {node.code}
          </List.Item>
        ))}
      </Section>
    </Stack>
  );
}
