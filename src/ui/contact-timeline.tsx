// A contact's timeline across channels, shared by the contact's page (the contacts drawer) and a
// customer query's page: src/ui/history-timeline.tsx brings the layout, this file how it reads — each
// action in words, field labels, and values as people read them. Entries without a person (a mail link,
// the send job, an import's system work) read as sentences of their own. Each page brings its own paged
// query (the contacts API, or SPEC §7's getContactHistory).
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AuditEntry, AuditPage } from '../../contracts/audit';
import { HistoryTimeline, type HistoryWords } from './history-timeline';

const fieldLabels: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  phone: 'Phone',
  company: 'Company',
  companyTypeId: 'Company type',
  country: 'Country',
  language: 'Language',
  tags: 'Tags',
  consent: 'Consent',
  subscription: 'Subscription',
};

const withActor: Record<string, string> = {
  created: 'added the contact',
  updated: 'edited the contact',
  imported: 'imported the contact from a lead sheet',
  unsubscribed: 'unsubscribed the contact',
  help_chat: 'started a help chat',
  customer_query: 'sent a customer query',
  offer: 'asked for an offer',
  call: 'called the customer',
};
const withoutActor: Record<string, string> = {
  created: 'Contact added',
  updated: 'Contact updated',
  imported: 'Imported from a lead sheet',
  unsubscribed: 'Unsubscribed',
  bounced: 'Mail to this address bounced',
  responded: 'Answered a campaign',
  // What the send job (and the demo seed) write for each recipient's outcome.
  mail_sent: 'Mailed by a campaign',
  mail_deferred: 'A mail was deferred (retried later)',
  mail_failed: 'A mail failed',
  help_chat: 'Help chat',
  customer_query: 'Customer query',
  offer: 'Offer',
  call: 'Call',
};

export function timelineWords(companyTypeName: (id: string) => string | undefined): HistoryWords {
  return {
    fieldLabel: (field) => fieldLabels[field] ?? field,
    actionText: (entry: AuditEntry) =>
      entry.actor.name
        ? (withActor[entry.action] ?? entry.action.replaceAll('_', ' '))
        : (withoutActor[entry.action] ?? entry.action.replaceAll('_', ' ')),
    formatValue: (value) => {
      if (value === null || value === undefined || value === '') return '—';
      if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
      if (typeof value === 'boolean') return value ? 'yes' : 'no';
      const text = String(value);
      return companyTypeName(text) ?? text;
    },
  };
}

/** The timeline; `companyTypeName` reads a company type's id as its name (when the page knows them). */
export function ContactTimeline({
  history,
  companyTypeName = () => undefined,
}: {
  history: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  companyTypeName?: (id: string) => string | undefined;
}) {
  const words = useMemo(() => timelineWords(companyTypeName), [companyTypeName]);
  return (
    <HistoryTimeline
      history={history}
      words={words}
      emptyDescription="Changes, mails, answers, unsubscribes, chats and queries show here."
    />
  );
}
