// The seller's bot answers in a side panel of the help-chats page: each entry's question, answer and
// keywords, and (with the page's edit permission) adding, changing and removing entries. Everything the
// seller typed renders as text.
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  CloseButton,
  Drawer,
  Field,
  HStack,
  IconButton,
  Input,
  Portal,
  Stack,
  Text,
  Textarea,
  Wrap,
} from '@chakra-ui/react';
import { Bot, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  type ChatFaq,
  chatFaqBodySchema,
  MAX_CHAT_MESSAGE_LENGTH,
  SELLER_HELP_CHATS,
} from '../../../contracts/help-chats';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { DeleteRowDialog } from '../../ui/delete-row-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { isDefaultFaq, parseKeywords, useDeleteFaq, useFaqs, useSaveFaq } from './faq-api';

export const DEFAULTS_NOTE = 'Your bot uses these built-in answers until you add your own.';
export const KEYWORDS_ERROR = 'Each keyword needs 2 to 40 characters; at most 20 keywords.';

const fields = ['question', 'answer', 'keywords'] as const;
type FieldName = (typeof fields)[number];

interface Draft {
  question: string;
  answer: string;
  keywords: string;
}

const draftOf = (entry: ChatFaq | null): Draft => ({
  question: entry?.question ?? '',
  answer: entry?.answer ?? '',
  keywords: entry?.keywords.join(', ') ?? '',
});

/** Adds an entry (`entry` null) or changes one; the server's refusal shows above the fields. */
function FaqFormDialog({
  entry,
  open,
  onClose,
}: {
  entry: ChatFaq | null;
  open: boolean;
  onClose: () => void;
}) {
  const save = useSaveFaq();
  const [draft, setDraft] = useState(() => draftOf(entry));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});

  const close = () => {
    if (save.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = chatFaqBodySchema.safeParse({ ...draft, keywords: parseKeywords(draft.keywords) });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error.issues, fields);
      // zod's own words for a keyword are about array items; say what the field needs instead.
      setErrors(found.keywords ? { ...found, keywords: KEYWORDS_ERROR } : found);
      return;
    }
    setErrors({});
    save.mutate(
      { id: entry?.id, body: parsed.data },
      {
        onSuccess: () => {
          notify({ type: 'success', title: entry ? 'Answer saved' : 'Answer added' });
          onClose();
        },
      },
    );
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title={entry ? 'Edit answer' : 'Add answer'}
      submitLabel={entry ? 'Save' : 'Add answer'}
      pending={save.isPending}
    >
      <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
      <Field.Root invalid={!!errors.question} required>
        <Field.Label>
          Question <Field.RequiredIndicator />
        </Field.Label>
        <Input
          name="question"
          maxLength={300}
          value={draft.question}
          onChange={(e) => setDraft((d) => ({ ...d, question: e.target.value }))}
        />
        <Field.HelperText>Shown in the bot's menu.</Field.HelperText>
        <Field.ErrorText>{errors.question}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.answer} required>
        <Field.Label>
          Answer <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          name="answer"
          rows={4}
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          value={draft.answer}
          onChange={(e) => setDraft((d) => ({ ...d, answer: e.target.value }))}
        />
        <Field.ErrorText>{errors.answer}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.keywords}>
        <Field.Label>Keywords</Field.Label>
        <Input
          name="keywords"
          value={draft.keywords}
          onChange={(e) => setDraft((d) => ({ ...d, keywords: e.target.value }))}
        />
        <Field.HelperText>
          Separated by commas. The bot gives this answer when a customer's message contains one of them.
        </Field.HelperText>
        <Field.ErrorText>{errors.keywords}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

function DeleteFaqDialog({ target, onClose }: { target: ChatFaq | null; onClose: () => void }) {
  const remove = useDeleteFaq();
  return (
    <DeleteRowDialog
      target={target}
      remove={remove}
      title={() => 'Delete this answer?'}
      description={(shown) => `The bot stops answering "${shown?.question ?? ''}".`}
      deleted={() => 'Answer deleted'}
      onClose={onClose}
    />
  );
}

function FaqCard({
  entry,
  editable,
  onEdit,
  onDelete,
}: {
  entry: ChatFaq;
  editable: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Card.Root size="sm" variant="outline" asChild>
      <li aria-label={entry.question}>
        <Card.Body gap="2">
          <HStack align="start" justify="space-between" gap="2">
            <Text fontWeight="semibold" wordBreak="break-word">
              {entry.question}
            </Text>
            {editable ? (
              <HStack gap="1" flexShrink={0}>
                <IconButton size="xs" variant="ghost" aria-label={`Edit ${entry.question}`} onClick={onEdit}>
                  <Pencil />
                </IconButton>
                <IconButton
                  size="xs"
                  variant="ghost"
                  colorPalette="red"
                  aria-label={`Delete ${entry.question}`}
                  onClick={onDelete}
                >
                  <Trash2 />
                </IconButton>
              </HStack>
            ) : null}
          </HStack>
          <Text color="fg.muted" whiteSpace="pre-wrap" wordBreak="break-word">
            {entry.answer}
          </Text>
          {entry.keywords.length > 0 ? (
            <Wrap gap="1" aria-label="Keywords">
              {entry.keywords.map((keyword) => (
                <Badge key={keyword} size="sm" variant="subtle">
                  {keyword}
                </Badge>
              ))}
            </Wrap>
          ) : null}
        </Card.Body>
      </li>
    </Card.Root>
  );
}

/**
 * The bot answers: the list, and with `canEdit` the Add answer button and each own entry's Edit and
 * Delete. The built-in defaults have no Edit or Delete (the server has nothing stored to change).
 */
export function FaqDrawer({
  open,
  onClose,
  canEdit,
}: {
  open: boolean;
  onClose: () => void;
  canEdit: boolean;
}) {
  const faqs = useFaqs(open);
  // The dialog's entry: undefined closed, null a new one.
  const [editing, setEditing] = useState<ChatFaq | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ChatFaq | null>(null);

  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>Bot answers</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <Text color="fg.muted">
                  The sales bot offers these questions in its menu and answers with them when a customer's
                  message contains a keyword.
                </Text>
                {canEdit ? (
                  <Button
                    alignSelf="flex-start"
                    colorPalette="brand"
                    size="sm"
                    onClick={() => setEditing(null)}
                  >
                    <Plus /> Add answer
                  </Button>
                ) : null}
                {faqs.isPending ? (
                  <Box aria-busy="true">Loading the answers…</Box>
                ) : faqs.isError ? (
                  <Alert.Root status="error" role="alert">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>Could not load the answers</Alert.Title>
                      <Alert.Description>{getErrorMessage(faqs.error)}</Alert.Description>
                    </Alert.Content>
                    <Button size="xs" variant="outline" onClick={() => faqs.refetch()}>
                      Retry
                    </Button>
                  </Alert.Root>
                ) : (
                  <>
                    {faqs.data.usingDefaults ? (
                      <Alert.Root status="info" role="status">
                        <Alert.Indicator />
                        <Alert.Title>{DEFAULTS_NOTE}</Alert.Title>
                      </Alert.Root>
                    ) : null}
                    {faqs.data.result.length === 0 ? (
                      <Text color="fg.muted">No answers yet.</Text>
                    ) : (
                      <Stack as="ul" gap="3" listStyleType="none" aria-label="Bot answers">
                        {faqs.data.result.map((entry) => (
                          <FaqCard
                            key={entry.id}
                            entry={entry}
                            editable={canEdit && !isDefaultFaq(entry)}
                            onEdit={() => setEditing(entry)}
                            onDelete={() => setDeleting(entry)}
                          />
                        ))}
                      </Stack>
                    )}
                  </>
                )}
              </Stack>
              {editing !== undefined ? (
                <FaqFormDialog
                  key={editing?.id ?? 'new'}
                  entry={editing}
                  open
                  onClose={() => setEditing(undefined)}
                />
              ) : null}
              <DeleteFaqDialog target={deleting} onClose={() => setDeleting(null)} />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close bot answers" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

/** The help-chats page header's button for sellers; editing needs the page's edit permission. */
export function BotAnswersButton() {
  const [open, setOpen] = useState(false);
  const { can } = useRouteActions(SELLER_HELP_CHATS);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} data-tour="bot-answers">
        <Bot /> Bot answers
      </Button>
      <FaqDrawer open={open} onClose={() => setOpen(false)} canEdit={can('edit')} />
    </>
  );
}
