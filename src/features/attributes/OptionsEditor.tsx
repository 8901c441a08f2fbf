import { Badge, Box, Button, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { ATTRIBUTE_LIMITS } from '../../../contracts/catalog';
import { plural } from '../../../contracts/domain/format';
import { type FormErrors, newOptionKey, type OptionDraft } from './attribute-form';

const MAX_OPTION_LENGTH = 100;

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * The options of an ENUMERATED attribute, in the order product forms offer them: rename in place, move
 * up or down, remove (not one products chose: the server would refuse), add at the end. Renaming an
 * option products chose is fine: their stored label follows.
 */
export function OptionsEditor({
  options,
  onChange,
  errors,
  disabled = false,
}: {
  options: OptionDraft[];
  onChange: (options: OptionDraft[]) => void;
  errors: FormErrors;
  disabled?: boolean;
}) {
  const [added, setAdded] = useState('');
  const headingId = useId();
  const full = options.length >= ATTRIBUTE_LIMITS.options;

  const add = () => {
    const value = added.trim();
    if (!value || full) return;
    onChange([...options, { key: newOptionKey(), value, productCount: 0 }]);
    setAdded('');
  };
  // Enter in the new option's box adds it; it must not submit the whole attribute.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  return (
    // Not a Field: it would give every option's input the same id and label.
    <Stack gap="2" role="group" aria-labelledby={headingId}>
      <Text id={headingId} fontSize="sm" fontWeight="medium">
        Options
      </Text>
      <Stack gap="2" width="full" role="list" aria-label="Options">
        {options.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            No options yet: add the choices sellers pick from.
          </Text>
        ) : null}
        {options.map((option, index) => {
          const error = errors[`options.${index}`];
          const name = option.value || `option ${index + 1}`;
          return (
            <Box key={option.key} role="listitem">
              <HStack gap="1">
                <Input
                  size="sm"
                  aria-label={`Option ${index + 1}`}
                  aria-invalid={!!error || undefined}
                  maxLength={MAX_OPTION_LENGTH}
                  value={option.value}
                  disabled={disabled}
                  onChange={(event) =>
                    onChange(
                      options.map((candidate) =>
                        candidate.key === option.key
                          ? { ...candidate, value: event.target.value }
                          : candidate,
                      ),
                    )
                  }
                />
                {option.productCount > 0 ? (
                  <Badge size="sm" variant="subtle" whiteSpace="nowrap" title="Products that chose it">
                    {plural(option.productCount, 'product')}
                  </Badge>
                ) : null}
                {disabled ? null : (
                  <>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Move ${name} up`}
                      disabled={index === 0}
                      onClick={() => onChange(move(options, index, index - 1))}
                    >
                      <ArrowUp />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Move ${name} down`}
                      disabled={index === options.length - 1}
                      onClick={() => onChange(move(options, index, index + 1))}
                    >
                      <ArrowDown />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Remove ${name}`}
                      title={
                        option.productCount > 0
                          ? 'Products chose this option: choose another on them first.'
                          : undefined
                      }
                      disabled={option.productCount > 0}
                      onClick={() => onChange(options.filter((candidate) => candidate.key !== option.key))}
                    >
                      <Trash2 />
                    </IconButton>
                  </>
                )}
              </HStack>
              {error ? (
                <Text fontSize="xs" color="fg.error" mt="1" role="alert">
                  {error}
                </Text>
              ) : null}
            </Box>
          );
        })}
        {disabled ? null : (
          <HStack gap="2">
            <Input
              size="sm"
              aria-label="New option"
              placeholder="New option"
              maxLength={MAX_OPTION_LENGTH}
              value={added}
              disabled={full}
              onChange={(event) => setAdded(event.target.value)}
              onKeyDown={onKeyDown}
            />
            <Button size="sm" variant="outline" onClick={add} disabled={!added.trim() || full}>
              <Plus /> Add option
            </Button>
          </HStack>
        )}
      </Stack>
      {errors.options ? (
        <Text fontSize="xs" color="fg.error" role="alert">
          {errors.options}
        </Text>
      ) : null}
    </Stack>
  );
}
