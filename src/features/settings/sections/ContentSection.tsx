// Settings → Content (issue 29 §7): the chat bot's welcome and general reply, the enquiry form's
// introduction and the unsubscribe and response pages' texts, one per offered language, edited in the
// rich-text editor with a preview; and the terms link. The server stores each text sanitised; an
// empty text means the built-in one (a language without its own text shows the English one).
import { Box, chakra, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { type JSX, useState } from 'react';
import { useClientSettings } from '../../../services/client-settings';
import { RichTextEditor } from '../../../ui/rich-text-editor';
import { SectionFrame } from '../SectionFrame';
import { type SectionForm, SettingField } from '../section-form';
import { TextSetting } from './text-setting';

type LocalizedHtml = Record<string, string>;

const HTML_FIELDS: { field: string; label: string; helper: string }[] = [
  {
    field: 'botWelcome',
    label: 'Chat bot welcome',
    helper: 'The first message of every chat. Empty: "Hi {name}! Welcome to {shop}. How can we help?"',
  },
  {
    field: 'botGeneralReply',
    label: 'Chat bot general reply',
    helper: "What the bot says when it doesn't know the answer.",
  },
  { field: 'enquiryIntro', label: 'Enquiry form introduction', helper: 'Shown above the enquiry form.' },
  {
    field: 'unsubscribeText',
    label: 'Unsubscribe page text',
    helper: "Shown on the page a mail's unsubscribe link opens.",
  },
  {
    field: 'responsePageText',
    label: 'Response page text',
    helper: 'Shown on the page a response link opens.',
  },
];

export default function ContentSection(): JSX.Element {
  return (
    <SectionFrame
      section="content"
      description="The texts customers read: the chat bot's messages, the enquiry form and the public pages, in each language you offer."
    >
      {(form) => <ContentFields form={form} />}
    </SectionFrame>
  );
}

function ContentFields({ form }: { form: SectionForm }) {
  const offered = useClientSettings().data?.languages ?? ['EN'];
  const languages = [...new Set(['EN', ...offered])];
  const [language, setLanguage] = useState('EN');
  return (
    <Stack gap="5">
      <Stack gap="1" maxW="16rem">
        <chakra.label htmlFor="content-language" fontWeight="medium">
          Language
        </chakra.label>
        <NativeSelect.Root>
          <NativeSelect.Field
            id="content-language"
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
          >
            {languages.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      {HTML_FIELDS.map(({ field, label, helper }) =>
        form.has(field) ? (
          <LocalizedHtmlField key={field} field={field} label={label} helper={helper} language={language} />
        ) : null,
      )}
      <TextSetting
        field="termsUrl"
        label="Terms link"
        helperText="The address of your terms and conditions."
        kind="url"
      />
    </Stack>
  );
}

function LocalizedHtmlField(props: { field: string; label: string; helper: string; language: string }) {
  const { field, label, helper, language } = props;
  const fullLabel = `${label} (${language})`;
  return (
    <SettingField field={field} label={fullLabel} helperText={helper}>
      {(control) => {
        const texts = (control.value as LocalizedHtml | undefined) ?? {};
        const html = texts[language] ?? '';
        return (
          <Stack gap="2">
            {/* Keyed by language: the editor reads its value once, so another language is another editor. */}
            <RichTextEditor
              key={language}
              label={fullLabel}
              value={html}
              disabled={control.disabled}
              onChange={(next) => control.onChange({ ...texts, [language]: next })}
            />
            <Box borderWidth="1px" rounded="md" p="3" bg="bg.subtle">
              <Text fontSize="xs" color="fg.muted" mb="1">
                Preview
              </Text>
              {html ? (
                // The editor's own HTML (its schema has no script or handlers) or the server's sanitised copy.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised as described above
                <Box className="content-preview" dangerouslySetInnerHTML={{ __html: html }} />
              ) : (
                <Text color="fg.muted">{language === 'EN' ? 'The built-in text.' : 'The English text.'}</Text>
              )}
            </Box>
          </Stack>
        );
      }}
    </SettingField>
  );
}
