// The bulk bar's Tags dialog (issue 16): add tags to the selected products, or take tags off them.
// Tags are picked from the tag tree and shown with their paths; the products' other tags stay.
import { Box, Field, HStack, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { type BulkTagMode, PRODUCT_LIMITS } from '../../../contracts/catalog';
import type { TagNodeWithPath, TagTreeSource } from '../../../contracts/tags';
import { FormDialog } from '../../ui/form-dialog';
import { TagPicker, tagPathText } from '../../ui/tag-picker';
import { TagChips } from './TagChips';

const modeLabels: Record<BulkTagMode, string> = {
  add: 'Add tags to them',
  remove: 'Remove tags from them',
};

export function BulkTagsDialog({
  open,
  onClose,
  onSubmit,
  pending,
  error,
  source,
  what,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (mode: BulkTagMode, tags: TagNodeWithPath[]) => void;
  pending: boolean;
  /** The server's refusal, or the dialog's own complaint. */
  error: string | null;
  /** The tree the picker reads (sellers: the published one). */
  source: TagTreeSource;
  /** "3 selected" or "All 1,240 matching products". */
  what: string;
}) {
  const [mode, setMode] = useState<BulkTagMode>('add');
  const [chosen, setChosen] = useState<TagNodeWithPath[]>([]);
  const [missing, setMissing] = useState(false);
  // Every opening starts afresh.
  useEffect(() => {
    if (!open) return;
    setMode('add');
    setChosen([]);
    setMissing(false);
  }, [open]);
  const full = chosen.length >= PRODUCT_LIMITS.tags;
  const count = chosen.length;
  const noun = `${count === 1 ? 'tag' : 'tags'}`;
  const shown = missing && count === 0 ? 'Choose at least one tag.' : error;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (count === 0) setMissing(true);
        else onSubmit(mode, chosen);
      }}
      title="Add or remove tags"
      submitLabel={
        count ? `${mode === 'add' ? 'Add' : 'Remove'} ${count} ${noun}` : mode === 'add' ? 'Add' : 'Remove'
      }
      submitPalette={mode === 'remove' ? 'red' : 'brand'}
      pending={pending}
    >
      <Text fontSize="sm" color="fg.muted">
        {what}: their other tags stay as they are.
      </Text>
      <RadioGroup.Root
        value={mode}
        onValueChange={(event) => event.value && setMode(event.value as BulkTagMode)}
        aria-label="What to do"
      >
        <HStack gap="5" wrap="wrap">
          {(Object.keys(modeLabels) as BulkTagMode[]).map((value) => (
            <RadioGroup.Item key={value} value={value}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{modeLabels[value]}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </HStack>
      </RadioGroup.Root>
      <Stack gap="2">
        {count ? (
          <TagChips
            tags={chosen.map((tag) => ({ id: tag.id, label: tagPathText(tag) }))}
            label="Chosen tags"
            onRemove={(id) => setChosen((current) => current.filter((tag) => tag.id !== id))}
            disabled={pending}
          />
        ) : null}
        <Field.Root invalid={Boolean(shown)}>
          {full ? (
            <Text fontSize="sm" color="fg.muted">
              At most {PRODUCT_LIMITS.tags} tags at once.
            </Text>
          ) : (
            <Box w="full">
              <TagPicker
                source={source}
                label={mode === 'add' ? 'Find a tag to add' : 'Find a tag to remove'}
                autoFocus
                exclude={(tag) => (chosen.some((one) => one.id === tag.id) ? 'Already chosen' : null)}
                onPick={(tag) => {
                  setMissing(false);
                  setChosen((current) =>
                    current.some((one) => one.id === tag.id) ? current : [...current, tag],
                  );
                }}
              />
            </Box>
          )}
          <Field.ErrorText>{shown}</Field.ErrorText>
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}
