// A campaign's page, in a drawer over the list (`?campaign=<id>`): its status with pause and resume, the
// progress of the send and the recipients by state, answers by option (a chart with the numbers beside
// it), what was sent to whom (template, fallback, audience in words), and the recipients, responses
// and unsubscribes, each a server-paged table.
import {
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  Drawer,
  Flex,
  Grid,
  Heading,
  HStack,
  NativeSelect,
  Portal,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Pause, Pencil, Play, Send } from 'lucide-react';
import { useMemo, useState } from 'react';
import { type Campaign, recipientStateLabels } from '../../../contracts/campaigns';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import { type RecipientState, recipientStates, templateLanguageLabels } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/api-error';
import { BarChart } from '../../ui/bar-chart';
import { RefreshButton } from '../../ui/list-controls';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { PagedQueryTable } from '../../ui/paged-table';
import { describeQuery } from '../../ui/query-builder';
import { SearchBox } from '../../ui/search-box';
import {
  bulkMailKeys,
  useCampaign,
  useCampaignAction,
  useCampaignResponses,
  useCampaignUnsubscribes,
  useContactFields,
  useRecipients,
} from './api';
import { CampaignProgress, CampaignStatusBadge, RecipientStateBadge, When } from './CampaignParts';
import { useRefreshOnTaskDone } from './CampaignsTab';
import { announceSent, SendDialog } from './SendDialog';

const PAGE = 20;

const stateColors: Record<RecipientState, string> = {
  queued: 'yellow',
  sending: 'yellow',
  sent: 'green',
  deferred: 'yellow',
  failed: 'red',
  skipped: 'gray',
};

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Box borderWidth="1px" rounded="md" px="3" py="2" data-testid={`figure-${label.toLowerCase()}`}>
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="xl" fontWeight="semibold" color={color}>
        {formatNumber(value)}
      </Text>
    </Box>
  );
}

function RecipientsTable({ campaign }: { campaign: Campaign }) {
  const [state, setState] = useState<RecipientState | null>(null);
  const [query, setQuery] = useState('');
  const [skip, setSkip] = useState(0);
  const recipients = useRecipients(
    campaign.id,
    { skip, limit: PAGE, query, state },
    campaign.status === 'sending',
  );
  return (
    <Stack gap="3">
      <Flex gap="2" wrap="wrap">
        <SearchBox
          value={query}
          onSearch={(text) => {
            setQuery(text);
            setSkip(0);
          }}
          label="Search recipients"
          placeholder="Search by name or e-mail"
        />
        <NativeSelect.Root size="sm" width="44">
          <NativeSelect.Field
            aria-label="Recipient state"
            value={state ?? ''}
            onChange={(event) => {
              setState((event.target.value || null) as RecipientState | null);
              setSkip(0);
            }}
          >
            <option value="">All states</option>
            {recipientStates.map((option) => (
              <option key={option} value={option}>
                {recipientStateLabels[option]} ({formatNumber(campaign.counts[option])})
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      <PagedQueryTable
        query={recipients}
        loadingLabel="Loading recipients"
        loadingRows={4}
        empty={
          campaign.total === 0
            ? {
                title: 'No recipients yet',
                description: 'The audience is fixed when the campaign starts sending.',
              }
            : { title: 'No recipient matches', description: 'Try another state or search.' }
        }
        label="Recipients"
        pagerLabel="Recipients pages"
        compact
        skip={skip}
        limit={PAGE}
        onSkipChange={setSkip}
        columns={
          <>
            <Table.ColumnHeader>Contact</Table.ColumnHeader>
            <Table.ColumnHeader>Language</Table.ColumnHeader>
            <Table.ColumnHeader>State</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Attempts</Table.ColumnHeader>
            <Table.ColumnHeader>Sent</Table.ColumnHeader>
            <Table.ColumnHeader>Last error</Table.ColumnHeader>
          </>
        }
      >
        {(rows) =>
          rows.map((recipient) => (
            <Table.Row key={recipient.contactId} data-testid="recipient-row">
              <ContactCell name={recipient.name} email={recipient.email} />
              <Table.Cell>{recipient.language}</Table.Cell>
              <Table.Cell>
                <RecipientStateBadge state={recipient.state} />
                {recipient.state === 'deferred' && recipient.nextAttemptAt ? (
                  <Text fontSize="xs" color="fg.muted">
                    retry <When at={recipient.nextAttemptAt} />
                  </Text>
                ) : null}
              </Table.Cell>
              <Table.Cell textAlign="end">{recipient.attempts}</Table.Cell>
              <Table.Cell>
                <When at={recipient.sentAt} />
              </Table.Cell>
              <Table.Cell maxW="xs">
                <Text
                  fontSize="sm"
                  color={recipient.lastError ? 'fg.error' : 'fg.muted'}
                  lineClamp={2}
                  title={recipient.lastError ?? undefined}
                >
                  {recipient.lastError ?? '—'}
                </Text>
              </Table.Cell>
            </Table.Row>
          ))
        }
      </PagedQueryTable>
    </Stack>
  );
}

/** A contact in a campaign's tables: the name (user text, as text) over the address. */
function ContactCell({ name, email }: { name: string; email: string }) {
  return (
    <Table.Cell>
      <Text>{name || '—'}</Text>
      <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
        {email}
      </Text>
    </Table.Cell>
  );
}

function ResponsesTable({ campaign }: { campaign: Campaign }) {
  const [skip, setSkip] = useState(0);
  const responses = useCampaignResponses(campaign.id, skip, PAGE);
  return (
    <PagedQueryTable
      query={responses}
      loadingLabel="Loading responses"
      empty={{
        title: 'No responses yet',
        description: campaign.responseOptions.length
          ? 'Answers appear here as contacts pick them in the mail.'
          : 'This campaign asked for no answer.',
      }}
      label="Responses"
      pagerLabel="Responses pages"
      compact
      skip={skip}
      limit={PAGE}
      onSkipChange={setSkip}
      columns={
        <>
          <Table.ColumnHeader>Contact</Table.ColumnHeader>
          <Table.ColumnHeader>Answer</Table.ColumnHeader>
          <Table.ColumnHeader>Comment</Table.ColumnHeader>
          <Table.ColumnHeader>When</Table.ColumnHeader>
        </>
      }
    >
      {(rows) =>
        rows.map((response) => (
          <Table.Row key={`${response.email}:${response.at}`}>
            <ContactCell name={response.name} email={response.email} />
            <Table.Cell>
              <Badge variant="subtle">{response.response}</Badge>
            </Table.Cell>
            <Table.Cell maxW="sm">
              <Text fontSize="sm" lineClamp={3}>
                {response.comment || '—'}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <When at={response.at} />
            </Table.Cell>
          </Table.Row>
        ))
      }
    </PagedQueryTable>
  );
}

const methodLabels: Record<string, string> = {
  link: 'Link in the mail',
  one_click: 'One-click (mail app)',
  staff: 'By staff',
};

function UnsubscribesTable({ campaign }: { campaign: Campaign }) {
  const [skip, setSkip] = useState(0);
  const unsubscribes = useCampaignUnsubscribes(campaign.id, skip, PAGE);
  return (
    <PagedQueryTable
      query={unsubscribes}
      loadingLabel="Loading unsubscribes"
      empty={{
        title: 'Nobody unsubscribed',
        // One definition with the campaigns list and the dashboard (server campaigns/unsubscribes.ts).
        description:
          'Contacts who unsubscribe after this campaign’s mail, before any later one, appear here.',
      }}
      label="Unsubscribes"
      pagerLabel="Unsubscribes pages"
      compact
      skip={skip}
      limit={PAGE}
      onSkipChange={setSkip}
      columns={
        <>
          <Table.ColumnHeader>Contact</Table.ColumnHeader>
          <Table.ColumnHeader>How</Table.ColumnHeader>
          <Table.ColumnHeader>When</Table.ColumnHeader>
        </>
      }
    >
      {(rows) =>
        rows.map((entry) => (
          <Table.Row key={`${entry.email}:${entry.at}`}>
            <ContactCell name={entry.name} email={entry.email} />
            <Table.Cell>{entry.method ? (methodLabels[entry.method] ?? entry.method) : '—'}</Table.Cell>
            <Table.Cell>
              <When at={entry.at} />
            </Table.Cell>
          </Table.Row>
        ))
      }
    </PagedQueryTable>
  );
}

function Summary({ campaign }: { campaign: Campaign }) {
  const fields = useContactFields();
  const audience = useMemo(() => {
    const query = describeQuery(campaign.audience.query, fields.data ?? []);
    const parts = [
      query,
      campaign.audience.search ? `name, e-mail or company contains "${campaign.audience.search}"` : '',
    ];
    return parts.filter(Boolean).join(' AND ') || 'Every contact';
  }, [campaign.audience, fields.data]);
  const rows: [string, string][] = [
    ['Template', campaign.templateName ?? 'Deleted'],
    ['Fallback language', templateLanguageLabels[campaign.fallbackLanguage] ?? campaign.fallbackLanguage],
    ['Audience', audience],
    ['Answers offered', campaign.responseOptions.length ? campaign.responseOptions.join(', ') : 'None'],
    ['Rate', `${formatNumber(campaign.ratePerSecond)} mails a second`],
    ['Created', `${formatDateTime(campaign.createdAt)} by ${campaign.createdByName}`],
  ];
  if (campaign.scheduledAt) rows.push(['Scheduled', formatDateTime(campaign.scheduledAt)]);
  if (campaign.startedAt) rows.push(['Started', formatDateTime(campaign.startedAt)]);
  if (campaign.finishedAt) rows.push(['Finished', formatDateTime(campaign.finishedAt)]);
  return (
    <Box as="dl" display="grid" gridTemplateColumns="max-content 1fr" columnGap="4" rowGap="2" fontSize="sm">
      {rows.map(([term, value]) => (
        <Box key={term} display="contents">
          <Text as="dt" color="fg.muted">
            {term}
          </Text>
          <Text as="dd" data-testid={`summary-${term.toLowerCase().replaceAll(' ', '-')}`}>
            {value}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

function ResponsesByAnswer({ campaign }: { campaign: Campaign }) {
  if (!campaign.responseOptions.length && !campaign.responsesByAnswer.length) return null;
  const counts = new Map(campaign.responsesByAnswer.map((entry) => [entry.response, entry.count]));
  // Every option offered, answered or not, then any answer no longer offered.
  const answers = [
    ...campaign.responseOptions.map((option) => ({ label: option, value: counts.get(option) ?? 0 })),
    ...campaign.responsesByAnswer
      .filter((entry) => !campaign.responseOptions.includes(entry.response))
      .map((entry) => ({ label: entry.response, value: entry.count })),
  ];
  return (
    <Stack gap="2">
      <Heading size="sm">Responses by answer</Heading>
      <Grid
        templateColumns={{ base: '1fr', md: 'minmax(0, 2fr) minmax(0, 1fr)' }}
        gap="4"
        alignItems="center"
      >
        {answers.some((answer) => answer.value > 0) ? (
          <BarChart data={answers} label="Responses by answer" height={180} />
        ) : (
          <Text color="fg.muted" fontSize="sm">
            No answers yet.
          </Text>
        )}
        <Table.Root size="sm" aria-label="Responses by answer">
          <Table.Body>
            {answers.map((answer) => (
              <Table.Row key={answer.label}>
                <Table.Cell>{answer.label}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(answer.value)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Grid>
    </Stack>
  );
}

function DetailBody({
  campaign,
  canPause,
  canEdit,
  onEdit,
}: {
  campaign: Campaign;
  canPause: boolean;
  canEdit: boolean;
  onEdit(): void;
}) {
  const action = useCampaignAction();
  const act = (kind: 'pause' | 'resume') =>
    action.mutate(
      { id: campaign.id, action: kind },
      {
        onSuccess: () =>
          notify({
            type: 'success',
            title: kind === 'pause' ? `${campaign.name} is paused` : `${campaign.name} is sending again`,
          }),
      },
    );
  const started = campaign.total > 0;
  // A draft or a scheduled campaign has mailed nobody: it is sent (or rescheduled) from here too.
  const notSent = campaign.status === 'draft' || campaign.status === 'scheduled';
  const [sending, setSending] = useState<'now' | 'schedule' | null>(null);
  return (
    <Stack gap="6">
      <HStack gap="2" wrap="wrap">
        <CampaignStatusBadge status={campaign.status} size="lg" />
        {campaign.status === 'sending' && canPause ? (
          <Button size="sm" variant="outline" onClick={() => act('pause')} loading={action.isPending}>
            <Pause /> Pause
          </Button>
        ) : null}
        {campaign.status === 'paused' && canPause ? (
          <Button size="sm" colorPalette="brand" onClick={() => act('resume')} loading={action.isPending}>
            <Play /> Resume
          </Button>
        ) : null}
        {notSent && canEdit ? (
          <>
            <Button size="sm" variant="outline" onClick={onEdit}>
              <Pencil /> Edit
            </Button>
            <Button size="sm" variant="outline" onClick={() => setSending('schedule')}>
              <CalendarClock /> {campaign.status === 'scheduled' ? 'Reschedule…' : 'Schedule…'}
            </Button>
            <Button size="sm" colorPalette="brand" onClick={() => setSending('now')}>
              <Send /> Send now…
            </Button>
          </>
        ) : null}
      </HStack>
      {sending ? (
        <SendDialog
          campaign={campaign}
          audience={campaign.audience}
          mode={sending}
          onClose={() => setSending(null)}
          onSent={(sent, task) => {
            announceSent(sent, task);
            setSending(null);
          }}
        />
      ) : null}
      {campaign.error ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{campaign.error}</Alert.Title>
        </Alert.Root>
      ) : null}
      {campaign.status === 'paused' ? (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>
            Paused:{' '}
            {formatNumber(campaign.counts.queued + campaign.counts.sending + campaign.counts.deferred)}{' '}
            recipients wait. Resume to mail them; nobody is mailed twice.
          </Alert.Title>
        </Alert.Root>
      ) : null}
      {started ? (
        <Stack gap="3">
          <CampaignProgress campaign={campaign} size="md" />
          <SimpleGrid columns={{ base: 2, md: 4, lg: 8 }} gap="2">
            {recipientStates.map((state) => (
              <Figure
                key={state}
                label={recipientStateLabels[state]}
                value={campaign.counts[state]}
                color={campaign.counts[state] && state !== 'queued' ? `${stateColors[state]}.fg` : undefined}
              />
            ))}
            <Figure label="Responses" value={campaign.responses} />
            <Figure label="Unsubscribes" value={campaign.unsubscribes} />
          </SimpleGrid>
          {campaign.byLanguage.length > 1 ? (
            <Text fontSize="sm" color="fg.muted">
              By language:{' '}
              {campaign.byLanguage
                .map((entry) => `${entry.language} ${formatNumber(entry.count)}`)
                .join(' · ')}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }} gap="6">
        <Stack gap="2">
          <Heading size="sm">{notSent ? 'What will be sent' : 'What was sent'}</Heading>
          <Summary campaign={campaign} />
        </Stack>
        <ResponsesByAnswer campaign={campaign} />
      </Grid>
      <Tabs.Root defaultValue="recipients" lazyMount unmountOnExit variant="line">
        <Tabs.List>
          <Tabs.Trigger value="recipients">Recipients ({formatNumber(campaign.total)})</Tabs.Trigger>
          <Tabs.Trigger value="responses">Responses ({formatNumber(campaign.responses)})</Tabs.Trigger>
          <Tabs.Trigger value="unsubscribes">
            Unsubscribes ({formatNumber(campaign.unsubscribes)})
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="recipients">
          <RecipientsTable campaign={campaign} />
        </Tabs.Content>
        <Tabs.Content value="responses">
          <ResponsesTable campaign={campaign} />
        </Tabs.Content>
        <Tabs.Content value="unsubscribes">
          <UnsubscribesTable campaign={campaign} />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

export function CampaignDetail({
  id,
  onClose,
  onEdit,
  canPause,
  canEdit,
}: {
  id: string;
  onClose(): void;
  onEdit(): void;
  /** `edit` on the route: pause and resume. */
  canPause: boolean;
  /** `create` on the route: change a draft or a scheduled campaign. */
  canEdit: boolean;
}) {
  const campaign = useCampaign(id);
  const client = useQueryClient();
  useRefreshOnTaskDone(() => void client.invalidateQueries({ queryKey: bulkMailKeys.campaign(id) }));
  const [refreshing, setRefreshing] = useState(false);
  // The campaign and its tables, read again.
  const refresh = () => {
    setRefreshing(true);
    void client
      .invalidateQueries({ queryKey: bulkMailKeys.campaign(id) })
      .finally(() => setRefreshing(false));
  };
  return (
    <Drawer.Root
      open
      onOpenChange={(event) => !event.open && onClose()}
      // It often opens as the composer closes, whose focus goes back to the page: no reason to close.
      onFocusOutside={(event) => event.preventDefault()}
      size="xl"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <HStack justify="space-between" w="full" pe="8" gap="2">
                <Drawer.Title truncate>{campaign.data?.name ?? 'Campaign'}</Drawer.Title>
                <RefreshButton onRefresh={refresh} refreshing={refreshing} label="Refresh the campaign" />
              </HStack>
            </Drawer.Header>
            <Drawer.Body>
              {campaign.isError ? (
                <ErrorState
                  message={getErrorMessage(campaign.error)}
                  onRetry={() => void campaign.refetch()}
                />
              ) : campaign.data ? (
                <DetailBody campaign={campaign.data} canPause={canPause} canEdit={canEdit} onEdit={onEdit} />
              ) : (
                <LoadingState rows={6} label="Loading the campaign" />
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
