// The template editor's live preview: the language version as it is being edited, rendered by the
// server for the sample contact (POST /preview, once typing pauses) — the subject, the HTML in a
// sandboxed frame (no scripts, no same-origin access, no forms) and the plain-text part mails carry.
import { Alert, Box, Heading, HStack, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { sampleTemplateValues } from '../../../contracts/mail-templates';
import { getErrorMessage } from '../../services/api-error';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useTemplatePreview } from './api';
import type { VariantForm } from './template-form';

export const PREVIEW_DEBOUNCE_MS = 500;

/** A rendered body as a document of its own, in the frame's own plain style. */
export function previewDocument(html: string): string {
  if (/<html[\s>]/i.test(html)) return html;
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px/1.5 system-ui,sans-serif;color:#1a1a1a;margin:16px;word-wrap:break-word}img{max-width:100%}</style></head><body>${html}</body></html>`;
}

export function TemplatePreview({ variant }: { variant: VariantForm }) {
  const input = useMemo(
    () => ({ language: variant.language, subject: variant.subject, html: variant.html }),
    [variant.language, variant.subject, variant.html],
  );
  const debounced = useDebouncedValue(input, PREVIEW_DEBOUNCE_MS);
  const blank = !debounced.subject.trim() && !debounced.html.trim();
  const preview = useTemplatePreview(blank ? null : debounced);
  const updating = preview.isFetching || debounced !== input;

  return (
    <Stack gap="3" h="full" aria-label="Preview" role="region">
      <HStack justify="space-between">
        <Heading size="sm">Preview</Heading>
        <HStack gap="2" color="fg.muted" fontSize="xs">
          {updating && !blank ? <Spinner size="xs" aria-label="Updating the preview" /> : null}
          <Text>
            For {sampleTemplateValues.fullName}, {sampleTemplateValues.company}
          </Text>
        </HStack>
      </HStack>
      {blank ? (
        <Text color="fg.muted" fontSize="sm">
          Write a subject and a body to see the mail as a contact receives it.
        </Text>
      ) : preview.isError ? (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>{getErrorMessage(preview.error)}</Alert.Title>
        </Alert.Root>
      ) : preview.data ? (
        <Stack gap="3" flex="1" opacity={updating ? 0.7 : 1}>
          {preview.data.warnings.map((warning) => (
            <Alert.Root key={warning} status="warning" size="sm">
              <Alert.Indicator />
              <Alert.Title>{warning}</Alert.Title>
            </Alert.Root>
          ))}
          <Box borderWidth="1px" rounded="md" px="3" py="2">
            <Text fontSize="xs" color="fg.muted">
              Subject
            </Text>
            <Text fontWeight="semibold" data-testid="preview-subject">
              {preview.data.subject || '—'}
            </Text>
          </Box>
          <Tabs.Root defaultValue="html" size="sm" variant="enclosed">
            <Tabs.List>
              <Tabs.Trigger value="html">HTML</Tabs.Trigger>
              <Tabs.Trigger value="text">Plain text</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="html">
              <Box borderWidth="1px" rounded="md" overflow="hidden" bg="white">
                <iframe
                  title="Mail preview"
                  sandbox=""
                  srcDoc={previewDocument(preview.data.html)}
                  style={{ width: '100%', height: '420px', border: 0, display: 'block' }}
                />
              </Box>
            </Tabs.Content>
            <Tabs.Content value="text">
              <Box
                as="pre"
                borderWidth="1px"
                rounded="md"
                p="3"
                fontSize="sm"
                whiteSpace="pre-wrap"
                maxH="420px"
                overflowY="auto"
                data-testid="preview-text"
              >
                {preview.data.text}
              </Box>
            </Tabs.Content>
          </Tabs.Root>
        </Stack>
      ) : (
        <Text color="fg.muted" fontSize="sm">
          Rendering…
        </Text>
      )}
    </Stack>
  );
}
