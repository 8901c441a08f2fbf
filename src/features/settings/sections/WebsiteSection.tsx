// Settings → Website (issue 29 §5): the storefront's address, the sites allowed to embed the chat
// widget (frame-ancestors and CORS on the server; any site while none is named), and the launcher's
// look with a live preview of the button a storefront shows.
import { Box, HStack, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import type { JSX } from 'react';
import { isHexColour, readableTextOn } from '../../../../contracts/domain/colour-contrast';
import { FormMessage } from '../../../ui/form-parts';
import { SectionFrame } from '../SectionFrame';
import { type SectionForm, SettingField } from '../section-form';
import { TextSetting } from './text-setting';

export default function WebsiteSection(): JSX.Element {
  return (
    <SectionFrame
      section="website"
      description="Your storefront's address, the sites that may embed the help chat, and how its button looks."
    >
      {(form) => <WebsiteFields form={form} />}
    </SectionFrame>
  );
}

/** One origin a line; blank lines dropped (the server checks each: scheme, host, optional port). */
const originsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line, index, lines) => line !== '' || index === lines.length - 1);

function WebsiteFields({ form }: { form: SectionForm }) {
  return (
    <Stack gap="5">
      <TextSetting
        field="storefrontUrl"
        label="Storefront URL"
        helperText="The address of your shop, e.g. https://shop.example.com."
        kind="url"
      />
      <SettingField
        field="embedOrigins"
        label="Sites allowed to embed"
        helperText="One site a line, e.g. https://shop.example.com. While no site is named, any site may embed the chat; once one is, only the named sites may."
      >
        {(control) => (
          <Textarea
            id={control.id}
            rows={4}
            value={((control.value as string[] | undefined) ?? []).join('\n')}
            disabled={control.disabled}
            onChange={(event) => control.onChange(originsOf(event.target.value))}
            onBlur={(event) => control.onChange(originsOf(event.target.value).filter(Boolean))}
          />
        )}
      </SettingField>
      <HStack gap="5" align="start" wrap="wrap">
        <ColourField field="widgetColour" label="Widget colour" />
        <ColourField field="widgetTextColour" label="Widget text colour" />
      </HStack>
      <TextSetting
        field="widgetGreeting"
        label="Widget greeting"
        helperText="The text on the chat button."
        maxLength={120}
      />
      <SettingField field="widgetPosition" label="Widget position">
        {(control) => (
          <NativeSelect.Root disabled={control.disabled} maxW="16rem">
            <NativeSelect.Field
              id={control.id}
              value={String(control.value ?? 'bottom-right')}
              onChange={(event) => control.onChange(event.target.value)}
            >
              <option value="bottom-right">Bottom right</option>
              <option value="bottom-left">Bottom left</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
      </SettingField>
      <WidgetPreview form={form} />
    </Stack>
  );
}

function ColourField({ field, label }: { field: string; label: string }) {
  return (
    <SettingField field={field} label={label}>
      {(control) => (
        <Input
          id={control.id}
          type="color"
          w="6rem"
          p="1"
          value={String(control.value ?? '#000000')}
          disabled={control.disabled}
          onChange={(event) => control.onChange(event.target.value)}
        />
      )}
    </SettingField>
  );
}

/**
 * The launcher as a storefront shows it, from the draft as it is typed, with the text colour the chat
 * page will use (black or white when the chosen one reads below WCAG AA on the colour).
 */
function WidgetPreview({ form }: { form: SectionForm }) {
  const colour = form.value<string>('widgetColour') ?? '#2b6cb0';
  const chosenText = form.value<string>('widgetTextColour') ?? '#ffffff';
  const textColour =
    isHexColour(colour) && isHexColour(chosenText) ? readableTextOn(colour, chosenText) : chosenText;
  const greeting = form.value<string>('widgetGreeting') || 'Chat with us';
  const left = form.value<string>('widgetPosition') === 'bottom-left';
  return (
    <Stack gap="2">
      <Text fontWeight="medium" id="website-preview-label">
        Preview
      </Text>
      <Box
        role="img"
        aria-labelledby="website-preview-label"
        aria-describedby="website-preview-text"
        position="relative"
        h="32"
        borderWidth="1px"
        rounded="md"
        bg="bg.muted"
      >
        <Box
          id="website-preview-text"
          position="absolute"
          bottom="3"
          {...(left ? { left: '3' } : { right: '3' })}
          px="4"
          py="2"
          rounded="full"
          boxShadow="md"
          fontWeight="semibold"
          style={{ background: colour, color: textColour }}
        >
          {greeting}
        </Box>
      </Box>
      <FormMessage status="info">
        {textColour === chosenText
          ? null
          : `Low contrast: the text colour is hard to read on the widget colour, so the chat uses ${
              textColour === '#000000' ? 'black' : 'white'
            } text instead.`}
      </FormMessage>
    </Stack>
  );
}
