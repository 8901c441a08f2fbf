import { Field, Input, SimpleGrid, Textarea } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { dateTimeInputValue } from '../../../contracts/domain/format';
import { connectKinds } from '../../../contracts/queries';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { useAddConnectData } from './api';

type Kind = (typeof connectKinds)[number];
const kindLabels: Record<Kind, string> = { call: 'Call', email: 'E-mail', note: 'Note' };

export interface ConnectDraft {
  kind: Kind;
  direction: 'outgoing' | 'incoming';
  body: string;
}

/** The datetime-local text as an instant with its offset, or null when empty or unreadable. */
export function instantOf(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * "Add connect data": a call, an e-mail or a note with its outcome, and the next follow-up (SPEC §7
 * addConnectData). A call placed from the page opens it filled in.
 */
export function ConnectDataDialog({
  queryId,
  open,
  draft,
  onClose,
}: {
  queryId: string;
  open: boolean;
  draft: ConnectDraft | null;
  onClose: () => void;
}) {
  const add = useAddConnectData(queryId);
  const [kind, setKind] = useState<Kind>('call');
  const [direction, setDirection] = useState<'outgoing' | 'incoming'>('outgoing');
  const [body, setBody] = useState('');
  const [outcome, setOutcome] = useState('');
  const [followUp, setFollowUp] = useState('');
  const [followUpNote, setFollowUpNote] = useState('');

  useEffect(() => {
    if (!open) return;
    setKind(draft?.kind ?? 'call');
    setDirection(draft?.direction ?? 'outgoing');
    setBody(draft?.body ?? '');
    setOutcome('');
    setFollowUp('');
    setFollowUpNote('');
    add.reset();
  }, [open, draft, add.reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = instantOf(followUp);
    add.mutate(
      {
        kind,
        direction,
        body,
        outcome,
        ...(at ? { nextFollowUpAt: at, followUpNote } : {}),
      },
      { onSuccess: onClose },
    );
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      title="Add connect data"
      submitLabel="Add to the thread"
      pending={add.isPending}
      size="lg"
    >
      <FormMessage status="error">{add.isError ? getErrorMessage(add.error) : null}</FormMessage>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root>
          <Field.Label htmlFor="connect-kind">Kind</Field.Label>
          <OptionSelect
            id="connect-kind"
            value={kind}
            options={connectKinds.map((value) => ({ value, label: kindLabels[value] }))}
            onChange={(value) => setKind(value as Kind)}
          />
        </Field.Root>
        {kind !== 'note' ? (
          <Field.Root>
            <Field.Label htmlFor="connect-direction">Direction</Field.Label>
            <OptionSelect
              id="connect-direction"
              value={direction}
              options={[
                { value: 'outgoing', label: 'We contacted the customer' },
                { value: 'incoming', label: 'The customer contacted us' },
              ]}
              onChange={(value) => setDirection(value as 'outgoing' | 'incoming')}
            />
          </Field.Root>
        ) : null}
      </SimpleGrid>
      <Field.Root>
        <Field.Label>What was said</Field.Label>
        <Textarea
          rows={4}
          maxLength={20_000}
          value={body}
          onChange={(event) => setBody(event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label>Outcome</Field.Label>
        <Input
          maxLength={200}
          placeholder="e.g. Sends the order number tomorrow"
          value={outcome}
          onChange={(event) => setOutcome(event.target.value)}
        />
      </Field.Root>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root>
          <Field.Label>Next follow-up</Field.Label>
          <Input
            type="datetime-local"
            min={dateTimeInputValue(new Date())}
            value={followUp}
            onChange={(event) => setFollowUp(event.target.value)}
          />
          <Field.HelperText>The assignee is reminded then.</Field.HelperText>
        </Field.Root>
        <Field.Root disabled={!followUp}>
          <Field.Label>Follow-up note</Field.Label>
          <Input
            maxLength={500}
            value={followUpNote}
            onChange={(event) => setFollowUpNote(event.target.value)}
          />
        </Field.Root>
      </SimpleGrid>
    </FormDialog>
  );
}
