import { Badge, Button, DataList, Grid, HStack, Stack, Text } from '@chakra-ui/react';
import { MailPlus, MessageSquarePlus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useSearch } from 'wouter';
import { formatDateTime } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import { QUERY_PAGE, type QueryDetail, type SlaClock } from '../../../contracts/queries';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { ContactTimeline } from '../../ui/contact-timeline';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import { SectionCard } from '../../ui/section-card';
import { useContactHistory, useQueryDetail } from './api';
import { ConnectDataDialog, type ConnectDraft } from './ConnectDataDialog';
import {
  channelLabels,
  clockPalette,
  clockText,
  priorityLabels,
  priorityPalette,
  queryNumber,
} from './labels';
import { useLiveQueries } from './live-refresh';
import { QueryCallButton } from './QueryCallButton';
import { QueryControls } from './QueryControls';
import { QueryStatusBadge } from './QueryStatusBadge';
import { QueryThread } from './QueryThread';
import { ReplyDialog } from './ReplyDialog';

function Clock({ label, clock }: { label: string; clock: SlaClock }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>
        <Badge colorPalette={clockPalette[clock.state]} variant="subtle" data-state={clock.state}>
          {clockText(clock)}
        </Badge>
      </DataList.ItemValue>
    </DataList.Item>
  );
}

function Customer({ query }: { query: QueryDetail }) {
  const rows: [string, string][] = [
    ['Name', query.customerName],
    ['E-mail', query.email],
    ['Phone', query.phone || '—'],
    ['Seller', query.sellerName ?? 'Marketplace'],
    ['Product', query.productName ?? '—'],
    ['Channel', channelLabels[query.channel]],
    ['Received', formatDateTime(query.createdAt)],
  ];
  return (
    <DataList.Root orientation="horizontal" size="sm">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

function ContactHistory({ queryId, contactId }: { queryId: string; contactId: string }) {
  const history = useContactHistory(queryId, contactId);
  return <ContactTimeline history={history} />;
}

/**
 * One customer query (`/queries/query?id=…`, issue 30): the message and its thread, the customer, the
 * controls (status, assignee, priority, follow-up, snooze), the SLA clocks, "Add connect data", "Reply"
 * from a template, click to call when the phone can be reached, and the contact's timeline across
 * channels.
 */
export default function QueryPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const validId = id && isUuid(id) ? id : null;
  const detail = useQueryDetail(validId);
  const { can } = useRouteActions(QUERY_PAGE);
  const [dialog, setDialog] = useState<'connect' | 'reply' | null>(null);
  const [draft, setDraft] = useState<ConnectDraft | null>(null);
  useLiveQueries();
  const logCall = useCallback((summary: string) => {
    setDraft({ kind: 'call', direction: 'outgoing', body: summary });
    setDialog('connect');
  }, []);

  if (!validId)
    return <FullPageMessage title="No query chosen" description="Open a query from the queries inbox." />;
  if (detail.isPending) return <LoadingState rows={6} label="Loading the query" />;
  if (detail.isError)
    return <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const query = detail.data;
  const canEdit = can('edit');

  return (
    <>
      <PageHeader
        title={`${queryNumber(query.number)}: ${query.subject}`}
        description={`From ${query.customerName} <${query.email}>`}
        actions={
          canEdit ? (
            <HStack gap="2" wrap="wrap">
              {query.phoneCallable ? <QueryCallButton phone={query.phone} onEnded={logCall} /> : null}
              <Button
                variant="outline"
                data-tour="query-connect"
                onClick={() => {
                  setDraft(null);
                  setDialog('connect');
                }}
              >
                <MessageSquarePlus /> Add connect data
              </Button>
              <Button
                colorPalette="brand"
                data-tour="query-reply"
                disabled={query.status === 'closed'}
                onClick={() => setDialog('reply')}
              >
                <MailPlus /> Reply
              </Button>
            </HStack>
          ) : null
        }
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <QueryStatusBadge status={query.status} />
        <Badge colorPalette={priorityPalette[query.priority]} variant="outline">
          {priorityLabels[query.priority]} priority
        </Badge>
        {query.overdue ? (
          <Badge colorPalette="red" variant="solid">
            Follow-up overdue
          </Badge>
        ) : null}
        {query.snoozedUntil ? (
          <Badge variant="outline">Snoozed until {formatDateTime(query.snoozedUntil)}</Badge>
        ) : null}
      </HStack>

      <Grid
        templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          <SectionCard title="Message">
            <Text whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="query-message">
              {query.message}
            </Text>
          </SectionCard>
          <SectionCard title="Thread" tour="query-thread">
            <QueryThread query={query} />
          </SectionCard>
          {query.contactId ? (
            <SectionCard title="Contact timeline">
              <ContactHistory queryId={query.id} contactId={query.contactId} />
            </SectionCard>
          ) : null}
        </Stack>
        <Stack gap="4">
          <SectionCard title="Customer">
            <Customer query={query} />
          </SectionCard>
          <SectionCard title="SLA" tour="query-sla">
            <DataList.Root orientation="horizontal" size="sm">
              <Clock label="First response" clock={query.sla.firstResponse} />
              <Clock label="Resolution" clock={query.sla.resolution} />
            </DataList.Root>
          </SectionCard>
          <SectionCard title="Handling">
            <QueryControls
              key={`${query.nextFollowUpAt}|${query.followUpNote}|${query.snoozedUntil}|${query.snoozeReopenOnReply}`}
              query={query}
              canEdit={canEdit}
            />
          </SectionCard>
        </Stack>
      </Grid>

      {canEdit ? (
        <>
          <ConnectDataDialog
            queryId={query.id}
            open={dialog === 'connect'}
            draft={draft}
            onClose={() => setDialog(null)}
          />
          <ReplyDialog
            queryId={query.id}
            customerEmail={query.email}
            open={dialog === 'reply'}
            onClose={() => setDialog(null)}
          />
        </>
      ) : null}
    </>
  );
}
