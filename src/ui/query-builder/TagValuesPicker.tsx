// The value editor of a `tree` field over the tag tree ("Tag is under …"): the chosen tags as chips
// showing their paths (a name alone is ambiguous: "Shirts" sits under Men and under Women), and the tag
// picker to add more. A feature hands it to the builder through `valueEditors`, under the field's
// option source, naming the tree its users may read (the draft for staff, the published tree for
// sellers): node ids are the same in both.
import { Stack, Text } from '@chakra-ui/react';
import { type ComponentType, memo, useMemo, useState } from 'react';
import { QUERY_LIMITS } from '../../../contracts/query-tree';
import type { TagNodeWithPath, TagTreeSource } from '../../../contracts/tags';
import { useTagNodes } from '../../services/tag-tree';
import { TagPicker, tagPathText } from '../tag-picker';
import type { ValueEditorProps } from './builder-context';
import { ChosenValues } from './ChosenValues';

/** What a chip says for a chosen id the tree does not hold (deleted since the query was saved). */
export const UNKNOWN_TAG_LABEL = 'A tag no longer in the tree';

const TagValues = memo(function TagValues({
  value,
  setValue,
  disabled,
  source,
}: ValueEditorProps & { source: TagTreeSource }) {
  const chosen = useMemo(
    () =>
      Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && id !== '') : [],
    [value],
  );
  const nodes = useTagNodes(source, chosen);
  // Tags picked here are known at once; the others (a query from a link) are read by id.
  const [picked, setPicked] = useState<ReadonlyMap<string, TagNodeWithPath>>(new Map());
  // A new picker after each pick: its search box starts empty again for the next tag.
  const [pickerKey, setPickerKey] = useState(0);
  const known = new Map(picked);
  for (const node of nodes.data ?? []) if (node) known.set(node.id, node);
  const labelOf = (id: string) => {
    const node = known.get(id);
    if (node) return tagPathText(node);
    return nodes.isPending ? 'Loading…' : UNKNOWN_TAG_LABEL;
  };

  const add = (tag: TagNodeWithPath) => {
    setPicked((current) => new Map(current).set(tag.id, tag));
    setPickerKey((key) => key + 1);
    setValue((current) => {
      const before = Array.isArray(current) ? current.filter((part) => part !== '') : [];
      return before.some((part) => String(part) === tag.id) ? current : [...before, tag.id];
    });
  };
  const remove = (id: string) =>
    setValue((current) => {
      const rest = (Array.isArray(current) ? current : []).filter(
        (part) => part !== '' && String(part) !== id,
      );
      return rest.length ? rest : undefined;
    });
  const full = chosen.length >= QUERY_LIMITS.maxValues;

  return (
    <Stack gap="1.5" width="full">
      <ChosenValues
        label="Chosen tags"
        values={chosen}
        labelOf={labelOf}
        disabled={disabled}
        onRemove={remove}
        itemTestId="chosen-tag"
        titled
      />
      {full ? (
        <Text fontSize="xs" color="fg.muted">
          A condition can list at most {QUERY_LIMITS.maxValues} tags.
        </Text>
      ) : disabled ? null : (
        <TagPicker
          key={pickerKey}
          source={source}
          label="Find a tag"
          placeholder="Type part of a tag’s name (the tags below it count too)"
          exclude={(tag) => (chosen.includes(tag.id) ? 'Already chosen' : null)}
          onPick={add}
        />
      )}
    </Stack>
  );
});

const editors = new Map<TagTreeSource, ComponentType<ValueEditorProps>>();

/** The tag editor reading `source` (the same component for the same source, so rows stay memoised). */
export function tagValueEditor(source: TagTreeSource): ComponentType<ValueEditorProps> {
  let editor = editors.get(source);
  if (!editor) {
    const Editor = (props: ValueEditorProps) => <TagValues {...props} source={source} />;
    Editor.displayName = `TagValues(${String(source)})`;
    editor = Editor;
    editors.set(source, editor);
  }
  return editor;
}
