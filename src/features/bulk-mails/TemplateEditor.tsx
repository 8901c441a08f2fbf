// A mail template in a full-width drawer: name, description, default language and one tab per language
// version (subject and body, each with "Insert variable"), with the live preview beside it. The browser
// checks unknown variables and empty fields before saving; the server's refusals land on their fields.
import {
  Badge,
  Box,
  Button,
  Drawer,
  Field,
  Grid,
  HStack,
  Input,
  Menu,
  NativeSelect,
  Portal,
  Stack,
  Tabs,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Braces, Plus, X } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { type TemplateLanguage, templateLanguageLabels } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/api-error';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { RichTextEditor } from '../../ui/rich-text-editor';
import { useSaveTemplate, useTemplate } from './api';
import { DiscardChangesDialog } from './DiscardChangesDialog';
import { type CloseGuard, DrawerForm, EditorDrawer, useCloseGuard, useRegisterClose } from './EditorDrawer';
import { TemplatePreview } from './TemplatePreview';
import {
  emptyVariant,
  firstErrorLanguage,
  formOfTemplate,
  htmlKey,
  inputOfForm,
  missingLanguages,
  newTemplateForm,
  serverTemplateErrors,
  subjectKey,
  type TemplateErrors,
  type TemplateForm,
  type VariantForm,
  validateTemplateForm,
  variableItems,
} from './template-form';

const languageName = (language: TemplateLanguage) => templateLanguageLabels[language];

/** The subject's own "Insert variable": types the variable where the cursor is. */
function SubjectVariableMenu({ onInsert, disabled }: { onInsert(text: string): void; disabled: boolean }) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} onSelect={(details) => onInsert(details.value)}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" disabled={disabled} aria-label="Insert variable in the subject">
          <Braces /> Insert variable
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {variableItems.map((item) => (
              <Menu.Item key={item.text} value={item.text}>
                {item.label}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

function VariantFields({
  variant,
  errors,
  readOnly,
  onChange,
}: {
  variant: VariantForm;
  errors: TemplateErrors;
  readOnly: boolean;
  onChange(patch: Partial<VariantForm>): void;
}) {
  const subject = useRef<HTMLInputElement>(null);
  const name = languageName(variant.language);
  const insertInSubject = (text: string) => {
    const input = subject.current;
    const start = input?.selectionStart ?? variant.subject.length;
    const end = input?.selectionEnd ?? start;
    onChange({ subject: `${variant.subject.slice(0, start)}${text}${variant.subject.slice(end)}` });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  return (
    <Stack gap="4">
      <Field.Root invalid={Boolean(errors[subjectKey(variant.language)])} required>
        <Field.Label>Subject ({name})</Field.Label>
        <HStack w="full" align="start">
          <Input
            ref={subject}
            value={variant.subject}
            maxLength={200}
            readOnly={readOnly}
            onChange={(event) => onChange({ subject: event.target.value })}
          />
          <SubjectVariableMenu onInsert={insertInSubject} disabled={readOnly} />
        </HStack>
        <Field.ErrorText>{errors[subjectKey(variant.language)]}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={Boolean(errors[htmlKey(variant.language)])} required>
        <Field.Label>Body ({name})</Field.Label>
        <Box w="full">
          <RichTextEditor
            label={`Body (${name})`}
            value={variant.html}
            disabled={readOnly}
            onChange={(html) => onChange({ html })}
            insertMenu={{ label: 'Insert variable', items: variableItems }}
          />
        </Box>
        <Field.ErrorText>{errors[htmlKey(variant.language)]}</Field.ErrorText>
        <Field.HelperText>
          Variables such as {'{{firstName}}'} are filled in for each contact; {'{{company|your company}}'}
          writes “your company” for a contact without one. The preview warns when some contacts lack a
          variable. A plain-text part is made from the body when you save.
        </Field.HelperText>
      </Field.Root>
    </Stack>
  );
}

function TemplateFormDrawer({
  guard,
  id,
  version,
  initial,
  readOnly,
  onClose,
  onSaved,
}: {
  guard: CloseGuard;
  id: string | null;
  version: number;
  initial: TemplateForm;
  readOnly: boolean;
  onClose(): void;
  onSaved(id: string): void;
}) {
  const [form, setForm] = useState(initial);
  // The version the form was opened at: a refetch in the background must not move it (saving over
  // someone else's change is refused with their name, rather than done silently).
  const [openedAt] = useState(version);
  const [errors, setErrors] = useState<TemplateErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [language, setLanguage] = useState<TemplateLanguage>(initial.variants[0]?.language ?? 'EN');
  const [discarding, setDiscarding] = useState(false);
  const save = useSaveTemplate();
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);

  const current = form.variants.find((variant) => variant.language === language) ?? form.variants[0];
  const missing = missingLanguages(form);

  const clearError = (...keys: string[]) =>
    setErrors((now) => {
      if (!keys.some((key) => key in now)) return now;
      const next = { ...now };
      for (const key of keys) delete next[key];
      return next;
    });
  const setVariant = (target: TemplateLanguage, patch: Partial<VariantForm>) => {
    if (patch.subject !== undefined) clearError(subjectKey(target));
    if (patch.html !== undefined) clearError(htmlKey(target));
    setVariantValues(target, patch);
  };
  const setVariantValues = (target: TemplateLanguage, patch: Partial<VariantForm>) =>
    setForm((now) => ({
      ...now,
      variants: now.variants.map((variant) =>
        variant.language === target ? { ...variant, ...patch } : variant,
      ),
    }));
  const addLanguage = (added: TemplateLanguage) => {
    setForm((now) => ({ ...now, variants: [...now.variants, emptyVariant(added)] }));
    setLanguage(added);
  };
  const removeLanguage = (removed: TemplateLanguage) => {
    const rest = form.variants.filter((variant) => variant.language !== removed);
    setForm((now) => ({
      ...now,
      variants: rest,
      defaultLanguage:
        now.defaultLanguage === removed ? (rest[0]?.language ?? now.defaultLanguage) : now.defaultLanguage,
    }));
    if (language === removed) setLanguage(rest[0]?.language ?? 'EN');
  };

  const close = () => {
    if (save.isPending) return;
    if (dirty && !readOnly) setDiscarding(true);
    else onClose();
  };
  useRegisterClose(guard, close, onClose);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateTemplateForm(form);
    setErrors(found);
    if (Object.keys(found).length) {
      setMessage('Some fields need attention.');
      const at = firstErrorLanguage(found, form);
      if (at && !found.name && !found.defaultLanguage) setLanguage(at);
      return;
    }
    setMessage(null);
    save.mutate(
      { id, version: openedAt, input: inputOfForm(form) },
      {
        onSuccess: (saved) => {
          notify({ type: 'success', title: `Saved ${saved.name}` });
          for (const warning of saved.warnings) notify({ type: 'warning', title: warning });
          onSaved(saved.id);
        },
        onError: (failure) => {
          const onFields = serverTemplateErrors(failure);
          setErrors(onFields);
          setMessage(getErrorMessage(failure));
          const at = firstErrorLanguage(onFields, form);
          if (at) setLanguage(at);
        },
      },
    );
  };

  return (
    <>
      <DrawerForm onSubmit={submit} noValidate aria-label={id ? `Template ${initial.name}` : 'New template'}>
        <Drawer.Header>
          <Drawer.Title>
            {id ? (readOnly ? initial.name : `Edit ${initial.name}`) : 'New template'}
          </Drawer.Title>
        </Drawer.Header>
        <Drawer.Body>
          <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="6">
            <Stack gap="4">
              <Grid templateColumns={{ base: '1fr', md: '2fr 1fr' }} gap="4">
                <Field.Root invalid={Boolean(errors.name)} required>
                  <Field.Label>Name</Field.Label>
                  <Input
                    value={form.name}
                    maxLength={120}
                    readOnly={readOnly}
                    onChange={(event) => {
                      clearError('name');
                      setForm({ ...form, name: event.target.value });
                    }}
                  />
                  <Field.ErrorText>{errors.name}</Field.ErrorText>
                </Field.Root>
                <Field.Root invalid={Boolean(errors.defaultLanguage)}>
                  <Field.Label>Default language</Field.Label>
                  <NativeSelect.Root disabled={readOnly}>
                    <NativeSelect.Field
                      value={form.defaultLanguage}
                      onChange={(event) =>
                        setForm({ ...form, defaultLanguage: event.target.value as TemplateLanguage })
                      }
                    >
                      {form.variants.map((variant) => (
                        <option key={variant.language} value={variant.language}>
                          {languageName(variant.language)}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                  <Field.ErrorText>{errors.defaultLanguage}</Field.ErrorText>
                  <Field.HelperText>Sent to contacts whose language has no version.</Field.HelperText>
                </Field.Root>
              </Grid>
              <Field.Root invalid={Boolean(errors.description)}>
                <Field.Label>Description</Field.Label>
                <Textarea
                  value={form.description}
                  maxLength={500}
                  rows={2}
                  readOnly={readOnly}
                  placeholder="What the mail is for (only staff see this)"
                  onChange={(event) => setForm({ ...form, description: event.target.value })}
                />
                <Field.ErrorText>{errors.description}</Field.ErrorText>
              </Field.Root>
              <Tabs.Root
                value={current?.language}
                onValueChange={(details) => setLanguage(details.value as TemplateLanguage)}
                variant="outline"
              >
                <HStack justify="space-between" align="end" wrap="wrap" gap="2">
                  <Tabs.List aria-label="Language versions" flexWrap="wrap">
                    {form.variants.map((variant) => {
                      const wrong = errors[subjectKey(variant.language)] || errors[htmlKey(variant.language)];
                      return (
                        <Tabs.Trigger key={variant.language} value={variant.language}>
                          {languageName(variant.language)}
                          {variant.language === form.defaultLanguage ? (
                            <Badge size="xs" colorPalette="gray">
                              default
                            </Badge>
                          ) : null}
                          {wrong ? (
                            <Badge size="xs" colorPalette="red" aria-label="has errors">
                              !
                            </Badge>
                          ) : null}
                        </Tabs.Trigger>
                      );
                    })}
                  </Tabs.List>
                  {!readOnly && missing.length ? (
                    <Menu.Root onSelect={(details) => addLanguage(details.value as TemplateLanguage)}>
                      <Menu.Trigger asChild>
                        <Button size="sm" variant="outline">
                          <Plus /> Add language
                        </Button>
                      </Menu.Trigger>
                      <Portal>
                        <Menu.Positioner>
                          <Menu.Content>
                            {missing.map((option) => (
                              <Menu.Item key={option} value={option}>
                                {languageName(option)}
                              </Menu.Item>
                            ))}
                          </Menu.Content>
                        </Menu.Positioner>
                      </Portal>
                    </Menu.Root>
                  ) : null}
                </HStack>
                {errors.variants ? (
                  <Text color="fg.error" fontSize="sm" mt="2">
                    {errors.variants}
                  </Text>
                ) : null}
                {form.variants.map((variant) => (
                  <Tabs.Content key={variant.language} value={variant.language}>
                    <Stack gap="3">
                      {!readOnly && form.variants.length > 1 ? (
                        <HStack justify="flex-end">
                          <Button
                            size="xs"
                            variant="ghost"
                            colorPalette="red"
                            onClick={() => removeLanguage(variant.language)}
                          >
                            <X /> Remove {languageName(variant.language)}
                          </Button>
                        </HStack>
                      ) : null}
                      <VariantFields
                        variant={variant}
                        errors={errors}
                        readOnly={readOnly}
                        onChange={(patch) => setVariant(variant.language, patch)}
                      />
                    </Stack>
                  </Tabs.Content>
                ))}
              </Tabs.Root>
            </Stack>
            <Box borderWidth="1px" rounded="md" p="4" alignSelf="start" position={{ lg: 'sticky' }} top="0">
              {current ? <TemplatePreview variant={current} /> : null}
            </Box>
          </Grid>
        </Drawer.Body>
        <Drawer.Footer flexDirection="column" alignItems="stretch" gap="2">
          <FormMessage status="error">{message}</FormMessage>
          <HStack justify="flex-end">
            <Button variant="outline" onClick={close} disabled={save.isPending}>
              {readOnly ? 'Close' : 'Cancel'}
            </Button>
            {readOnly ? null : (
              <Button type="submit" colorPalette="brand" loading={save.isPending}>
                Save template
              </Button>
            )}
          </HStack>
        </Drawer.Footer>
      </DrawerForm>
      <DiscardChangesDialog
        open={discarding}
        description="The template keeps what was last saved."
        onStay={() => setDiscarding(false)}
        onDiscard={onClose}
      />
    </>
  );
}

/** The editor of template `id` ('new' for a new one); read-only for someone who may not edit. */
export function TemplateEditor({
  id,
  canEdit,
  onClose,
}: {
  id: string | 'new';
  canEdit: boolean;
  onClose(): void;
}) {
  const template = useTemplate(id === 'new' ? null : id);
  const guard = useCloseGuard(onClose);
  const [fresh] = useState(() => newTemplateForm());
  return (
    <EditorDrawer guard={guard}>
      {id === 'new' ? (
        <TemplateFormDrawer
          guard={guard}
          id={null}
          version={0}
          initial={fresh}
          readOnly={!canEdit}
          onClose={onClose}
          onSaved={onClose}
        />
      ) : template.data ? (
        <TemplateFormDrawer
          key={template.data.id}
          guard={guard}
          id={template.data.id}
          version={template.data.version}
          initial={formOfTemplate(template.data)}
          readOnly={!canEdit}
          onClose={onClose}
          onSaved={onClose}
        />
      ) : (
        <>
          <Drawer.Header>
            <Drawer.Title>Template</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body>
            {template.isError ? (
              <ErrorState message={getErrorMessage(template.error)} onRetry={() => void template.refetch()} />
            ) : (
              <LoadingState rows={6} label="Loading the template" />
            )}
          </Drawer.Body>
        </>
      )}
    </EditorDrawer>
  );
}
