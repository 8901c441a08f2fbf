import { Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { type TemplateLanguage, templateLanguageLabels } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useReplyTemplates, useReplyToQuery } from './api';

/**
 * "Reply": one of the marketing mail templates (the Bulk Mails page's), in one of its languages, with a
 * personal line above it. The mail carries a signed link where the customer answers; the reply is
 * recorded in the thread and the query waits for the customer.
 */
export function ReplyDialog({
  queryId,
  customerEmail,
  open,
  onClose,
}: {
  queryId: string;
  customerEmail: string;
  open: boolean;
  onClose: () => void;
}) {
  const reply = useReplyToQuery(queryId);
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const templates = useReplyTemplates(searched, open);
  const [templateId, setTemplateId] = useState('');
  const [language, setLanguage] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = templates.data?.find((template) => template.id === templateId);

  useEffect(() => {
    if (!open) return;
    setText('');
    setTemplateId('');
    setLanguage('');
    setNote('');
    setProblem(null);
    reply.reset();
  }, [open, reply.reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!templateId) {
      setProblem('Choose a template.');
      return;
    }
    setProblem(null);
    reply.mutate({ templateId, note, ...(language ? { language } : {}) }, { onSuccess: onClose });
  };

  const listProblem = templates.isError ? getErrorMessage(templates.error) : null;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      title="Reply"
      label={`Reply to ${customerEmail}`}
      submitLabel="Send reply"
      pending={reply.isPending}
      size="lg"
    >
      <FormMessage status="error">{reply.isError ? getErrorMessage(reply.error) : listProblem}</FormMessage>
      <Field.Root invalid={Boolean(problem)} required>
        <Field.Label htmlFor="reply-template">
          Template <Field.RequiredIndicator />
        </Field.Label>
        <Stack gap="1" w="full">
          <Input
            size="sm"
            aria-label="Template: find by name"
            placeholder="Find a template by name"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <OptionSelect
            id="reply-template"
            blank={
              templates.isPending
                ? 'Loading…'
                : templates.data?.length
                  ? 'Choose a template'
                  : 'No template found'
            }
            value={templateId}
            options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
            onChange={(value) => {
              setTemplateId(value);
              // The template's own default language unless another is chosen.
              setLanguage(templates.data?.find((template) => template.id === value)?.defaultLanguage ?? '');
            }}
          />
        </Stack>
        <Field.ErrorText>{problem}</Field.ErrorText>
        {chosen?.description ? <Field.HelperText>{chosen.description}</Field.HelperText> : null}
      </Field.Root>
      {chosen && chosen.languages.length > 1 ? (
        <Field.Root>
          <Field.Label htmlFor="reply-language">Language</Field.Label>
          <OptionSelect
            id="reply-language"
            value={language}
            options={chosen.languages.map((value) => ({
              value,
              label: templateLanguageLabels[value as TemplateLanguage] ?? value,
            }))}
            onChange={setLanguage}
          />
        </Field.Root>
      ) : null}
      <Field.Root>
        <Field.Label>Personal note (above the template)</Field.Label>
        <Textarea rows={3} maxLength={5000} value={note} onChange={(event) => setNote(event.target.value)} />
      </Field.Root>
    </FormDialog>
  );
}
