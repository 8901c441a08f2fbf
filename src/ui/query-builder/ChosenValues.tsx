// The values a condition holds, as removable chips under its picker (the enum and the tag picker).
import { HStack, Tag } from '@chakra-ui/react';

export function ChosenValues<V extends string | number>({
  label,
  values,
  labelOf,
  disabled,
  onRemove,
  itemTestId,
  titled = false,
}: {
  /** The list's accessible name. */
  label: string;
  values: readonly V[];
  labelOf: (value: V) => string;
  disabled?: boolean;
  onRemove: (value: V) => void;
  itemTestId?: string;
  /** Repeat the label as a tooltip, for labels long enough to be cut (a tag's path). */
  titled?: boolean;
}) {
  if (!values.length) return null;
  return (
    <HStack as="ul" aria-label={label} gap="1.5" wrap="wrap" listStyleType="none">
      {values.map((value) => {
        const text = labelOf(value);
        return (
          <Tag.Root as="li" key={String(value)} size="md" variant="surface" data-testid={itemTestId}>
            <Tag.Label title={titled ? text : undefined}>{text}</Tag.Label>
            <Tag.EndElement>
              <Tag.CloseTrigger
                aria-label={`Remove ${text}`}
                disabled={disabled}
                onClick={() => onRemove(value)}
              />
            </Tag.EndElement>
          </Tag.Root>
        );
      })}
    </HStack>
  );
}
