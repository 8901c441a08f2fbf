// Tags as chips that show their paths ("Apparel › Men › Shirts": a name alone is ambiguous), each
// removable when the person may change them. Used by the product's Tags card and the bulk tags dialog.
import { HStack, Tag } from '@chakra-ui/react';
import type { ProductTag } from '../../../contracts/catalog';
import { tagPathText } from '../../ui/tag-picker';

export interface TagChip {
  id: string;
  label: string;
  /** A tag the draft tree no longer holds: shown muted. */
  gone?: boolean;
}

/** A product's tag as a chip: its path, or what is known of a tag the tree lost. */
export const chipOfProductTag = (tag: ProductTag): TagChip =>
  tag.inTree
    ? { id: tag.id, label: tagPathText(tag) }
    : { id: tag.id, label: `${tag.name} (no longer in the tree)`, gone: true };

export function TagChips({
  tags,
  label,
  onRemove,
  disabled,
}: {
  tags: readonly TagChip[];
  /** The list's accessible name. */
  label: string;
  /** Without it the chips cannot be removed. */
  onRemove?: (id: string) => void;
  disabled?: boolean;
}) {
  return (
    <HStack as="ul" aria-label={label} gap="1.5" wrap="wrap" listStyleType="none">
      {tags.map((tag) => (
        <Tag.Root
          as="li"
          key={tag.id}
          size="lg"
          variant={tag.gone ? 'outline' : 'surface'}
          colorPalette={tag.gone ? 'gray' : 'brand'}
          data-testid="tag-chip"
        >
          <Tag.Label title={tag.label}>{tag.label}</Tag.Label>
          {onRemove ? (
            <Tag.EndElement>
              <Tag.CloseTrigger
                aria-label={`Remove ${tag.label}`}
                disabled={disabled}
                onClick={() => onRemove(tag.id)}
              />
            </Tag.EndElement>
          ) : null}
        </Tag.Root>
      ))}
    </HStack>
  );
}
