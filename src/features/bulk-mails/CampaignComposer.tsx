// Compose a campaign, in a full-width drawer: its name; the audience (quick pickers, the query builder,
// saved audiences, the live count); the template and the language version for contacts whose language
// it lacks; optional answers offered as buttons in the mail; the send rate. It is saved as a draft
// before a test mail or a send, and a send asks first, with the number of contacts it will mail.
import {
  Alert,
  Box,
  Button,
  Drawer,
  Field,
  Grid,
  Heading,
  HStack,
  IconButton,
  Input,
  Menu,
  NativeSelect,
  Separator,
  Stack,
  Tag,
  Text,
} from '@chakra-ui/react';
import { CalendarClock, EllipsisVertical, FlaskConical, Save, Send, Trash2, X } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { type Campaign, MAX_RATE_PER_SECOND, MAX_RESPONSE_OPTIONS } from '../../../contracts/campaigns';
import { formatDateTime } from '../../../contracts/domain/format';
import { type TemplateLanguage, templateLanguageLabels } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/api-error';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { SearchBox } from '../../ui/search-box';
import { AudienceEditor, type AudienceValue } from './AudienceEditor';
import {
  useCampaign,
  useContactFields,
  useDeleteCampaign,
  useSaveCampaign,
  useTemplate,
  useTemplateList,
  useTestMail,
} from './api';
import { CampaignStatusBadge } from './CampaignParts';
import {
  audienceOf,
  type CampaignErrors,
  type CampaignForm,
  formOfCampaign,
  inputOfForm,
  newCampaignForm,
  responseOptionProblem,
  serverCampaignErrors,
  validateCampaignForm,
  withoutAnswerLabel,
} from './campaign-form';
import { DiscardChangesDialog } from './DiscardChangesDialog';
import { type CloseGuard, DrawerForm, EditorDrawer, useCloseGuard, useRegisterClose } from './EditorDrawer';
import { announceSent, SendDialog } from './SendDialog';

const TEMPLATE_CHOICES = 100;

/** The chosen template as its option reads, kept while a search hides it from the list. */
interface TemplateChoice {
  id: string;
  name: string;
  languages: readonly TemplateLanguage[];
}

interface Saved {
  id: string;
  version: number;
  /** The form as last saved, to tell whether there is anything to save. */
  snapshot: string;
  status: Campaign['status'];
}

function ResponseOptions({
  options,
  onChange,
  onRemove,
  error,
}: {
  options: string[];
  onChange(options: string[]): void;
  /** The answer at this index goes (its wordings in other languages with it). */
  onRemove(index: number): void;
  error?: string;
}) {
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const found = responseOptionProblem(options, answer);
    setProblem(found);
    if (found) return;
    onChange([...options, answer.trim()]);
    setAnswer('');
  };
  return (
    <Field.Root invalid={Boolean(problem || error)}>
      <Field.Label>Answers (optional)</Field.Label>
      <HStack w="full">
        <Input
          value={answer}
          maxLength={60}
          placeholder="e.g. Interested"
          disabled={options.length >= MAX_RESPONSE_OPTIONS}
          onChange={(event) => setAnswer(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button variant="outline" onClick={add} disabled={options.length >= MAX_RESPONSE_OPTIONS}>
          Add answer
        </Button>
      </HStack>
      {options.length ? (
        <HStack as="ul" aria-label="Answers" gap="1.5" wrap="wrap" listStyleType="none" mt="1">
          {options.map((option) => (
            <Tag.Root as="li" key={option} size="md" variant="surface">
              <Tag.Label>{option}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger
                  aria-label={`Remove ${option}`}
                  onClick={() => onRemove(options.indexOf(option))}
                />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </HStack>
      ) : null}
      <Field.ErrorText>{problem ?? error}</Field.ErrorText>
      <Field.HelperText>
        Up to {MAX_RESPONSE_OPTIONS}. The mail then carries a link where each contact picks one; answers show
        on the campaign and the contact.
      </Field.HelperText>
    </Field.Root>
  );
}

/**
 * The answers as the template's other languages' mails show them (the mail's footer is translated by
 * the server). Counted together with the answers they translate; a blank keeps the answer's own text.
 */
function AnswerWordings({
  options,
  languages,
  labels,
  onChange,
  error,
}: {
  options: string[];
  languages: readonly TemplateLanguage[];
  labels: Partial<Record<TemplateLanguage, string[]>>;
  onChange(labels: Partial<Record<TemplateLanguage, string[]>>): void;
  error?: string;
}) {
  if (options.length === 0 || languages.length === 0) return null;
  const setWord = (language: TemplateLanguage, index: number, word: string) => {
    const words = options.map((_, at) => labels[language]?.[at] ?? '');
    words[index] = word;
    onChange({ ...labels, [language]: words });
  };
  return (
    <Stack as="fieldset" gap="2">
      <Text as="legend" fontWeight="medium" fontSize="sm">
        The answers in the template’s other languages
      </Text>
      {languages.map((language) => (
        <HStack key={language} wrap="wrap" gap="2">
          <Text fontSize="sm" minW="24">
            {templateLanguageLabels[language]}
          </Text>
          {options.map((option, index) => (
            <Input
              key={option}
              size="sm"
              width="40"
              maxLength={40}
              aria-label={`“${option}” in ${templateLanguageLabels[language]}`}
              placeholder={option}
              value={labels[language]?.[index] ?? ''}
              onChange={(event) => setWord(language, index, event.target.value)}
            />
          ))}
        </HStack>
      ))}
      {error ? (
        <Text color="fg.error" fontSize="sm">
          {error}
        </Text>
      ) : null}
      <Text color="fg.muted" fontSize="sm">
        Left blank, a language’s mail shows the answer as written above. Answers count together whatever the
        language.
      </Text>
    </Stack>
  );
}

function ComposerForm({
  guard,
  initial,
  campaign,
  onClose,
  onSaved,
  onSent,
  canDelete,
}: {
  guard: CloseGuard;
  initial: CampaignForm;
  campaign: Campaign | null;
  onClose(): void;
  onSaved(id: string): void;
  onSent(id: string): void;
  canDelete: boolean;
}) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<CampaignErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(
    campaign
      ? {
          id: campaign.id,
          version: campaign.version,
          snapshot: JSON.stringify(initial),
          status: campaign.status,
        }
      : null,
  );
  const [sending, setSending] = useState<'now' | 'schedule' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const fields = useContactFields();
  const [templateSearch, setTemplateSearch] = useState('');
  const templates = useTemplateList({ skip: 0, limit: TEMPLATE_CHOICES, query: templateSearch });
  const template = useTemplate(form.templateId || null);
  // The select lists the first TEMPLATE_CHOICES templates matching the search; the chosen one stays
  // listed even when the search no longer matches it.
  const templateOptions = templates.data?.result ?? [];
  const [chosenTemplate, setChosenTemplate] = useState<TemplateChoice | null>(null);
  const chosenMissing = templateOptions.some((option) => option.id === form.templateId)
    ? null
    : chosenTemplate?.id === form.templateId
      ? chosenTemplate
      : template.data?.id === form.templateId
        ? {
            id: template.data.id,
            name: template.data.name,
            languages: template.data.variants.map((variant) => variant.language),
          }
        : null;
  const searchTemplates = templateSearch !== '' || (templates.data?.count ?? 0) > TEMPLATE_CHOICES;
  const save = useSaveCampaign();
  const testMail = useTestMail();
  const remove = useDeleteCampaign();

  const dirty = !saved || saved.snapshot !== JSON.stringify(form);
  const busy = save.isPending || testMail.isPending;
  const audienceValue = useMemo<AudienceValue>(
    () => ({ query: form.query, search: form.search, audienceViewId: form.audienceViewId }),
    [form.query, form.search, form.audienceViewId],
  );
  const audience = useMemo(() => audienceOf(form, fields.data), [form, fields.data]);
  const languages = template.data?.variants.map((variant) => variant.language) ?? [];

  const set = (patch: Partial<CampaignForm>) => {
    setForm((now) => ({ ...now, ...patch }));
    // A field's message goes once the field changes.
    setErrors((now) => {
      const keys = Object.keys(patch).filter((key) => key in now);
      if (!keys.length && !('query' in patch && now.audience)) return now;
      const next = { ...now };
      for (const key of keys) delete next[key as keyof CampaignErrors];
      if ('query' in patch || 'search' in patch) delete next.audience;
      return next;
    });
  };
  const chooseTemplate = (templateId: string) => {
    const summary = templates.data?.result.find((option) => option.id === templateId);
    if (summary) setChosenTemplate({ id: summary.id, name: summary.name, languages: summary.languages });
    set({ templateId, fallbackLanguage: summary?.defaultLanguage ?? form.fallbackLanguage });
  };

  /** Saves the draft when it changed; answers its id and version, or null when it was refused. */
  const saveDraft = async (): Promise<Saved | null> => {
    const found = validateCampaignForm(form);
    setErrors(found);
    if (Object.keys(found).length) {
      setMessage('Some fields need attention.');
      return null;
    }
    if (saved && !dirty) {
      setMessage(null);
      return saved;
    }
    try {
      const stored = await save.mutateAsync({
        id: saved?.id ?? null,
        version: saved?.version ?? 0,
        input: inputOfForm(form, fields.data),
      });
      const next = {
        id: stored.id,
        version: stored.version,
        snapshot: JSON.stringify(form),
        status: stored.status,
      };
      setSaved(next);
      setMessage(null);
      if (!saved) onSaved(stored.id);
      return next;
    } catch (failure) {
      setErrors(serverCampaignErrors(failure));
      setMessage(getErrorMessage(failure));
      return null;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await saveDraft()) notify({ type: 'success', title: `Saved ${form.name.trim()}` });
  };

  const sendTest = async () => {
    const draft = await saveDraft();
    if (!draft) return;
    testMail.mutate(draft.id, {
      onSuccess: (answer) =>
        notify({ type: 'success', title: answer?.message ?? 'A test mail is on its way to your address.' }),
      onError: (failure) => setMessage(getErrorMessage(failure)),
    });
  };

  const startSend = async (mode: 'now' | 'schedule') => {
    if (await saveDraft()) setSending(mode);
  };

  const close = () => {
    if (busy) return;
    if (dirty && JSON.stringify(form) !== JSON.stringify(newCampaignForm())) setDiscarding(true);
    else onClose();
  };
  useRegisterClose(guard, close, onClose);

  return (
    <>
      <DrawerForm onSubmit={(event) => void submit(event)} noValidate aria-label="Compose a campaign">
        <Drawer.Header>
          <HStack gap="3">
            <Drawer.Title>{saved ? form.name.trim() || 'Campaign' : 'New campaign'}</Drawer.Title>
            {saved ? <CampaignStatusBadge status={saved.status} /> : null}
            {saved && dirty ? (
              <Text fontSize="sm" color="fg.muted">
                Unsaved changes
              </Text>
            ) : null}
          </HStack>
        </Drawer.Header>
        <Drawer.Body>
          <Grid
            templateColumns={{ base: '1fr', xl: 'minmax(0, 3fr) minmax(0, 2fr)' }}
            gap="8"
            maxW="7xl"
            mx="auto"
          >
            <Stack gap="6">
              <Field.Root invalid={Boolean(errors.name)} required>
                <Field.Label>Campaign name</Field.Label>
                <Input
                  value={form.name}
                  maxLength={120}
                  placeholder="e.g. Spring collection, retailers in India"
                  onChange={(event) => set({ name: event.target.value })}
                />
                <Field.ErrorText>{errors.name}</Field.ErrorText>
              </Field.Root>
              <Separator />
              <AudienceEditor value={audienceValue} onChange={set} error={errors.audience} />
            </Stack>
            <Stack gap="6">
              <Heading size="md">Mail</Heading>
              <Box data-tour="template">
                <Stack gap="4">
                  <Field.Root invalid={Boolean(errors.templateId)} required>
                    <Field.Label>Template</Field.Label>
                    {searchTemplates ? (
                      <SearchBox
                        value={templateSearch}
                        onSearch={setTemplateSearch}
                        label="Search templates"
                        placeholder="Search templates by name"
                        maxW="full"
                      />
                    ) : null}
                    <NativeSelect.Root disabled={templates.isPending}>
                      <NativeSelect.Field
                        value={form.templateId}
                        onChange={(event) => chooseTemplate(event.target.value)}
                      >
                        <option value="">
                          {templates.isPending ? 'Loading templates…' : 'Choose a template'}
                        </option>
                        {chosenMissing ? (
                          <option value={chosenMissing.id}>
                            {chosenMissing.name} ({chosenMissing.languages.join(', ')})
                          </option>
                        ) : null}
                        {templateOptions.map((option) => (
                          <option key={option.id} value={option.id}>
                            {option.name} ({option.languages.join(', ')})
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                    <Field.ErrorText>{errors.templateId}</Field.ErrorText>
                    {templates.data && templates.data.count === 0 && !templateSearch ? (
                      <Field.HelperText>
                        No templates yet: write one in the Templates tab first.
                      </Field.HelperText>
                    ) : null}
                    {templates.data && templateSearch && templates.data.count === 0 ? (
                      <Field.HelperText>No template matches “{templateSearch}”.</Field.HelperText>
                    ) : null}
                    {templates.data && templates.data.count > templateOptions.length ? (
                      <Field.HelperText>
                        Showing {templateOptions.length} of {templates.data.count} templates: search to find
                        others.
                      </Field.HelperText>
                    ) : null}
                  </Field.Root>
                  <Field.Root invalid={Boolean(errors.fallbackLanguage)} required disabled={!form.templateId}>
                    <Field.Label>Fallback language</Field.Label>
                    <NativeSelect.Root>
                      <NativeSelect.Field
                        value={form.fallbackLanguage}
                        onChange={(event) =>
                          set({ fallbackLanguage: event.target.value as TemplateLanguage })
                        }
                      >
                        {(languages.length ? languages : [form.fallbackLanguage]).map((language) => (
                          <option key={language} value={language}>
                            {templateLanguageLabels[language]}
                            {language === template.data?.defaultLanguage ? ' (template default)' : ''}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                    <Field.ErrorText>{errors.fallbackLanguage}</Field.ErrorText>
                    <Field.HelperText>
                      Each contact gets the version in their language
                      {languages.length
                        ? ` (${languages.map((language) => templateLanguageLabels[language]).join(', ')})`
                        : ''}
                      ; everyone else gets this one.
                    </Field.HelperText>
                  </Field.Root>
                </Stack>
              </Box>
              <ResponseOptions
                options={form.responseOptions}
                onChange={(responseOptions) => set({ responseOptions })}
                onRemove={(index) =>
                  set({
                    responseOptions: form.responseOptions.filter((_, at) => at !== index),
                    responseLabels: withoutAnswerLabel(form.responseLabels, index),
                  })
                }
                error={errors.responseOptions}
              />
              <AnswerWordings
                options={form.responseOptions}
                languages={languages.filter((language) => language !== template.data?.defaultLanguage)}
                labels={form.responseLabels}
                onChange={(responseLabels) => set({ responseLabels })}
                error={errors.responseLabels}
              />
              <Field.Root invalid={Boolean(errors.ratePerSecond)}>
                <Field.Label>Mails per second</Field.Label>
                <Input
                  type="number"
                  min={1}
                  max={MAX_RATE_PER_SECOND}
                  step={1}
                  width="40"
                  value={Number.isFinite(form.ratePerSecond) ? form.ratePerSecond : ''}
                  onChange={(event) => set({ ratePerSecond: event.target.valueAsNumber })}
                />
                <Field.ErrorText>{errors.ratePerSecond}</Field.ErrorText>
                <Field.HelperText>
                  The send is throttled to this rate; refusals for too many mails are retried later.
                </Field.HelperText>
              </Field.Root>
              {campaign?.status === 'scheduled' && campaign.scheduledAt ? (
                <Alert.Root status="info">
                  <Alert.Indicator />
                  <Alert.Title>
                    Scheduled for {formatDateTime(campaign.scheduledAt)}. Saving keeps the schedule.
                  </Alert.Title>
                </Alert.Root>
              ) : null}
            </Stack>
          </Grid>
        </Drawer.Body>
        {/* On a phone one row: Save draft, Send now and the other actions in a menu (issue 26). */}
        <Drawer.Footer
          flexDirection="column"
          alignItems="stretch"
          gap="2"
          px={{ base: '4', md: '6' }}
          py={{ base: '2', md: '4' }}
        >
          <FormMessage status="error">{message}</FormMessage>
          <HStack justify="space-between" wrap={{ base: 'nowrap', md: 'wrap' }} gap="2">
            <HStack gap="2" hideBelow="md">
              {saved && canDelete ? (
                <Button variant="ghost" colorPalette="red" onClick={() => setDeleting(true)} disabled={busy}>
                  <Trash2 /> Delete
                </Button>
              ) : null}
            </HStack>
            <HStack
              gap="2"
              wrap={{ base: 'nowrap', md: 'wrap' }}
              justify="flex-end"
              flex={{ base: '1', md: 'initial' }}
            >
              <Button variant="outline" onClick={close} disabled={busy} hideBelow="md">
                Close
              </Button>
              <Button type="submit" variant="outline" loading={save.isPending && !sending} disabled={busy}>
                <Save /> Save draft
              </Button>
              <Button
                variant="outline"
                onClick={() => void sendTest()}
                loading={testMail.isPending}
                disabled={busy}
                hideBelow="md"
              >
                <FlaskConical /> Send test mail
              </Button>
              <Button
                variant="outline"
                onClick={() => void startSend('schedule')}
                disabled={busy}
                hideBelow="md"
              >
                <CalendarClock /> Schedule…
              </Button>
              <Button
                colorPalette="brand"
                onClick={() => void startSend('now')}
                disabled={busy}
                data-tour="send"
              >
                <Send /> Send now…
              </Button>
              <Menu.Root positioning={{ placement: 'top-end' }}>
                <Menu.Trigger asChild>
                  <IconButton variant="outline" aria-label="More actions" disabled={busy} hideFrom="md">
                    <EllipsisVertical />
                  </IconButton>
                </Menu.Trigger>
                {/* Not in a portal: the drawer keeps the focus inside itself. */}
                <Menu.Positioner>
                  <Menu.Content>
                    <Menu.Item value="test" onClick={() => void sendTest()}>
                      <FlaskConical /> Send test mail
                    </Menu.Item>
                    <Menu.Item value="schedule" onClick={() => void startSend('schedule')}>
                      <CalendarClock /> Schedule…
                    </Menu.Item>
                    <Menu.Item value="close" onClick={close}>
                      <X /> Close
                    </Menu.Item>
                    {saved && canDelete ? (
                      <Menu.Item value="delete" color="fg.error" onClick={() => setDeleting(true)}>
                        <Trash2 /> Delete
                      </Menu.Item>
                    ) : null}
                  </Menu.Content>
                </Menu.Positioner>
              </Menu.Root>
            </HStack>
          </HStack>
        </Drawer.Footer>
      </DrawerForm>
      {sending && saved ? (
        <SendDialog
          campaign={{ id: saved.id, version: saved.version, name: form.name.trim() }}
          audience={audience}
          mode={sending}
          onClose={() => setSending(null)}
          onSent={(sent, task) => {
            announceSent(sent, task);
            setSending(null);
            onSent(sent.id);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${form.name.trim() || 'this campaign'}?`}
        description="The draft is removed. Nothing was mailed yet."
        confirmLabel="Delete"
        danger
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onConfirm={() =>
          saved &&
          remove.mutate(saved.id, {
            onSuccess: () => {
              notify({ type: 'success', title: `Deleted ${form.name.trim() || 'the campaign'}` });
              setDeleting(false);
              onClose();
            },
          })
        }
        onClose={() => {
          remove.reset();
          setDeleting(false);
        }}
      />
      <DiscardChangesDialog
        open={discarding}
        description={saved ? 'The campaign keeps what was last saved.' : 'The campaign was never saved.'}
        onStay={() => setDiscarding(false)}
        onDiscard={onClose}
      />
    </>
  );
}

/** The composer of campaign `id` ('new' for a new one). Only drafts and scheduled campaigns are edited. */
export function CampaignComposer({
  id,
  onClose,
  onSaved,
  onSent,
  onOpenDetail,
  canDelete,
}: {
  id: string | 'new';
  onClose(): void;
  /** A new campaign was saved as a draft with this id (the address then names it). */
  onSaved(id: string): void;
  onSent(id: string): void;
  onOpenDetail(id: string): void;
  canDelete: boolean;
}) {
  const campaign = useCampaign(id === 'new' ? null : id);
  const guard = useCloseGuard(onClose);
  const [initial] = useState(newCampaignForm);
  // A new campaign saved here gets an id (and the address names it): the same form carries on.
  const [created, setCreated] = useState<string | null>(null);
  const editable =
    campaign.data && (campaign.data.status === 'draft' || campaign.data.status === 'scheduled');
  return (
    <EditorDrawer guard={guard}>
      {id === 'new' || id === created ? (
        <ComposerForm
          key="new"
          guard={guard}
          initial={initial}
          campaign={null}
          onClose={onClose}
          onSaved={(newId) => {
            setCreated(newId);
            onSaved(newId);
          }}
          onSent={onSent}
          canDelete={canDelete}
        />
      ) : campaign.data && editable ? (
        <ComposerForm
          key={campaign.data.id}
          guard={guard}
          initial={formOfCampaign(campaign.data)}
          campaign={campaign.data}
          onClose={onClose}
          onSaved={onSaved}
          onSent={onSent}
          canDelete={canDelete}
        />
      ) : (
        <>
          <Drawer.Header>
            <Drawer.Title>Campaign</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body>
            {campaign.isError ? (
              <ErrorState message={getErrorMessage(campaign.error)} onRetry={() => void campaign.refetch()} />
            ) : campaign.data ? (
              <Stack gap="3" align="start">
                <Text>{campaign.data.name} has started sending: it can no longer be changed.</Text>
                <Button onClick={() => onOpenDetail(campaign.data.id)}>Open the campaign</Button>
              </Stack>
            ) : (
              <LoadingState rows={6} label="Loading the campaign" />
            )}
          </Drawer.Body>
        </>
      )}
    </EditorDrawer>
  );
}
