import { Field, Input, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { TITLE_TEMPLATE_LIMIT, titleTemplateSchema } from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { FormDialog } from '../../../ui/form-dialog';
import { FormMessage } from '../../../ui/form-parts';
import { notify } from '../../../ui/notify';
import { LoadingState } from '../../../ui/page-states';
import { useSaveTitleTemplate, useTitleTemplate } from '../shared/api';

/** The form, once the stored template is known (it starts from it). */
function TemplateField({
  initial,
  onSaved,
  onClose,
}: {
  initial: string;
  onSaved: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveTitleTemplate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = titleTemplateSchema.safeParse({ template: text });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Check the template.');
      return;
    }
    setError(null);
    save.mutate(checked.data.template, {
      onSuccess: () => {
        notify({ type: 'success', title: 'Title template saved' });
        onSaved();
      },
      onError: (failure) => setError(getErrorMessage(failure)),
    });
  };
  return (
    <FormDialog
      open
      onClose={() => !save.isPending && onClose()}
      onSubmit={submit}
      title="Title template"
      submitLabel="Save template"
      pending={save.isPending}
    >
      <Text fontSize="sm" color="fg.muted">
        Write the title with fields in braces: {'{brand}'}, {'{model}'}, {'{title}'}, {'{sku}'},{' '}
        {'{category}'} or any attribute code such as {'{colour}'}. The attributes it names are also the key
        attributes that, with the title, make two products duplicates.
      </Text>
      <Field.Root invalid={Boolean(error)} required>
        <Field.Label>Template</Field.Label>
        <Input
          value={text}
          maxLength={TITLE_TEMPLATE_LIMIT}
          onChange={(event) => setText(event.target.value)}
          fontFamily="mono"
          autoFocus
        />
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/** The admin's suggested-title template, edited in a dialog. */
export function TitleTemplateDialog({ onClose }: { onClose: () => void }) {
  const template = useTitleTemplate(true);
  if (!template.data) {
    return (
      <FormDialog
        open
        onClose={onClose}
        onSubmit={(event) => event.preventDefault()}
        title="Title template"
        submitLabel="Save template"
        pending={false}
      >
        {template.isError ? (
          <FormMessage status="error">{getErrorMessage(template.error)}</FormMessage>
        ) : (
          <LoadingState rows={2} label="Loading the template" />
        )}
      </FormDialog>
    );
  }
  return <TemplateField initial={template.data} onSaved={onClose} onClose={onClose} />;
}
