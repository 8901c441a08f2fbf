import {
  Badge,
  Button,
  Checkbox,
  Field,
  HStack,
  Input,
  InputGroup,
  NativeSelect,
  Stack,
  Switch,
  Text,
  Textarea,
  Wrap,
} from '@chakra-ui/react';
import { useState } from 'react';
import type { Attribute } from '../../../contracts/catalog';
import { RichTextEditor } from '../../ui/rich-text-editor';
import type { FormValue, MediaItem } from './attribute-form';
import { MediaInput } from './MediaInput';

/** Texts of a STRING MULTI attribute (keywords): typed one by one, shown as removable chips. */
function TextList({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const item = text.trim();
    if (item && !value.includes(item)) onChange([...value, item]);
    setText('');
  };
  return (
    <Stack gap="2">
      <Wrap gap="1">
        {value.map((item) => (
          <Badge key={item} variant="subtle" size="md">
            {item}
            <Button
              size="2xs"
              variant="plain"
              aria-label={`Remove ${item}`}
              onClick={() => onChange(value.filter((other) => other !== item))}
            >
              ×
            </Button>
          </Badge>
        ))}
      </Wrap>
      <HStack>
        <Input
          size="sm"
          aria-label={`Add to ${label}`}
          value={text}
          maxLength={1000}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ',') {
              event.preventDefault();
              add();
            }
          }}
          onBlur={add}
        />
        <Button size="sm" variant="outline" onClick={add}>
          Add
        </Button>
      </HStack>
    </Stack>
  );
}

/**
 * One attribute's input, chosen by its data type: options (single or multi), text or a list of texts,
 * rich text, media uploads, a date-time picker, a JSON editor, a switch, a number with its unit.
 * `error` is the server's (or the browser's) message for this attribute.
 */
export function AttributeInput({
  def,
  value,
  onChange,
  error,
  sellerId,
}: {
  def: Attribute;
  value: FormValue;
  onChange: (value: FormValue) => void;
  error?: string;
  sellerId: string | null;
}) {
  const multi = def.attributeType === 'MULTI';
  const id = `attribute-${def.code}`;
  const labelId = `${id}-label`;
  let input: React.ReactNode;
  switch (def.dataType) {
    case 'ENUMERATED': {
      const chosen = value as number[];
      input = multi ? (
        <Wrap gap="3" role="group" aria-label={def.label}>
          {def.options.map((option) => (
            <Checkbox.Root
              key={option.valueId}
              // Inside the field, every box would take the field's one control id and the field's
              // label: a click on any option's label would tick the first box, and each box would be
              // named after the attribute. Each box gets its own id and its own option as its name.
              ids={{ hiddenInput: `${id}-${option.valueId}`, label: `${id}-${option.valueId}-label` }}
              size="sm"
              checked={chosen.includes(option.valueId)}
              onCheckedChange={(event) =>
                onChange(
                  event.checked
                    ? [...chosen, option.valueId]
                    : chosen.filter((valueId) => valueId !== option.valueId),
                )
              }
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{option.value}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Wrap>
      ) : (
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            id={id}
            value={chosen[0] ?? ''}
            onChange={(event) => onChange(event.target.value ? [Number(event.target.value)] : [])}
          >
            <option value="">Not set</option>
            {def.options.map((option) => (
              <option key={option.valueId} value={option.valueId}>
                {option.value}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      );
      break;
    }
    case 'STRING':
      input = multi ? (
        <TextList label={def.label} value={value as string[]} onChange={onChange} />
      ) : (
        <Input
          id={id}
          size="sm"
          maxLength={1000}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'WYSIWYG':
      input = <RichTextEditor label={def.label} value={value as string} onChange={onChange} />;
      break;
    case 'IMAGE':
    case 'VIDEO':
      input = (
        <MediaInput
          kind={def.dataType === 'IMAGE' ? 'image' : 'video'}
          multiple={multi}
          value={value as MediaItem[]}
          onChange={onChange}
          sellerId={sellerId}
          label={def.label}
          inputTestId={`upload-${def.code}`}
        />
      );
      break;
    case 'DATETIME':
      input = (
        <Input
          id={id}
          size="sm"
          type="datetime-local"
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'OBJECT': {
      const text = value as string;
      let invalid = false;
      try {
        if (text.trim()) JSON.parse(text);
      } catch {
        invalid = true;
      }
      input = (
        <Stack gap="1">
          <Textarea
            id={id}
            size="sm"
            fontFamily="mono"
            rows={5}
            spellCheck={false}
            placeholder='{"key": "value"}'
            value={text}
            onChange={(event) => onChange(event.target.value)}
          />
          <HStack justify="space-between">
            <Text fontSize="xs" color={invalid ? 'fg.error' : 'fg.muted'}>
              {invalid ? 'Not valid JSON yet.' : 'A JSON object, up to 8 KB.'}
            </Text>
            <Button
              size="2xs"
              variant="ghost"
              disabled={invalid || !text.trim()}
              onClick={() => onChange(JSON.stringify(JSON.parse(text), null, 2))}
            >
              Format
            </Button>
          </HStack>
        </Stack>
      );
      break;
    }
    case 'BOOLEAN':
      input = (
        <HStack>
          {/* The switch is the field's control, named by the field's label (which points at `id`); its
              state is plain text beside it, not a second label. */}
          <Switch.Root
            ids={{ hiddenInput: id, label: labelId }}
            size="sm"
            checked={value === true}
            onCheckedChange={(event) => onChange(event.checked)}
          >
            <Switch.HiddenInput />
            <Switch.Control />
          </Switch.Root>
          <Text fontSize="sm">{value === null ? 'Not set' : value ? 'Yes' : 'No'}</Text>
          {value !== null ? (
            <Button
              size="2xs"
              variant="ghost"
              aria-label={`Clear ${def.label}`}
              onClick={() => onChange(null)}
            >
              Clear
            </Button>
          ) : null}
        </HStack>
      );
      break;
    default:
      input = (
        <InputGroup endAddon={def.unit ?? undefined}>
          <Input
            id={id}
            size="sm"
            inputMode={def.dataType === 'NUMBER' ? 'numeric' : 'decimal'}
            value={value as string}
            onChange={(event) => onChange(event.target.value)}
          />
        </InputGroup>
      );
  }
  return (
    <Field.Root invalid={Boolean(error)} required={def.isRequired}>
      <Field.Label htmlFor={id} id={labelId}>
        {def.label}
        {def.unit && def.dataType !== 'NUMBER' && def.dataType !== 'FLOAT' ? ` (${def.unit})` : ''}
        <Field.RequiredIndicator />
      </Field.Label>
      {input}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
