// Choosing a tag from the tag tree by typing part of its name or code: the matches show with their
// paths (a name alone is ambiguous: "Shirts" sits under Men and under Women). Used wherever a tag is
// chosen — a product's tags, a move's new parent, where a removed tag's products go.
import { Box, Button, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import type { TagNodeWithPath, TagTreeSource } from '../../contracts/tags';
import { useTagSearch } from '../services/tag-tree';
import { useDebouncedValue } from './use-debounced-value';

export const tagPathText = (tag: Pick<TagNodeWithPath, 'pathNames'>) => tag.pathNames.join(' › ');

export function TagPicker({
  onPick,
  source = 'draft',
  label = 'Find a tag',
  exclude,
  autoFocus,
  placeholder = 'Type part of a tag’s name or code',
}: {
  onPick: (tag: TagNodeWithPath) => void;
  source?: TagTreeSource;
  label?: string;
  /** Tags that cannot be chosen here (shown, but disabled), with why. */
  exclude?: (tag: TagNodeWithPath) => string | null;
  autoFocus?: boolean;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim(), 200);
  const search = useTagSearch(source, query);
  const listId = useId();
  const results = query ? (search.data?.result ?? []) : [];
  return (
    <Stack gap="2">
      <Input
        size="sm"
        aria-label={label}
        aria-controls={listId}
        placeholder={placeholder}
        value={text}
        autoFocus={autoFocus}
        onChange={(event) => setText(event.target.value)}
      />
      <Box id={listId} role="listbox" aria-label="Matching tags" maxH="64" overflowY="auto">
        {search.isFetching && results.length === 0 ? <Spinner size="sm" /> : null}
        {query && !search.isFetching && results.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            No tag matches “{query}”.
          </Text>
        ) : null}
        {results.map((tag) => {
          const why = exclude?.(tag) ?? null;
          return (
            <Button
              key={tag.id}
              role="option"
              aria-selected={false}
              variant="ghost"
              size="sm"
              w="full"
              justifyContent="flex-start"
              h="auto"
              py="1.5"
              disabled={why !== null}
              title={why ?? undefined}
              onClick={() => onPick(tag)}
              data-testid="tag-option"
            >
              <Stack gap="0" align="flex-start" textAlign="left">
                <Text fontWeight="medium">{tag.name}</Text>
                <Text fontSize="xs" color="fg.muted" whiteSpace="normal">
                  {tagPathText(tag)}
                  {why ? ` — ${why}` : ''}
                </Text>
              </Stack>
            </Button>
          );
        })}
        {search.data && search.data.count > results.length ? (
          <Text fontSize="xs" color="fg.muted" mt="1">
            {search.data.count - results.length} more: type more of the name.
          </Text>
        ) : null}
      </Box>
    </Stack>
  );
}
