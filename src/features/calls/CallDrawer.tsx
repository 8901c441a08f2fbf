import {
  CloseButton,
  DataList,
  Drawer,
  Heading,
  HStack,
  Icon,
  Portal,
  Stack,
  Text,
  Timeline,
} from '@chakra-ui/react';
import { MessageSquare, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { CallLogDetail, CallTimelineEntry } from '../../../contracts/calls';
import { formatDateTime } from '../../../contracts/domain/format';
import { formatCallDuration } from '../../lib/call-duration';
import { getErrorMessage } from '../../services/http';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { useCallDetails } from './api';
import { CallDirection, CallStatusBadge, RatingStars } from './call-status';

const timelineIcons = { created: Plus, status: RefreshCw, feedback: MessageSquare } as const;

function TimelineTitle({ entry }: { entry: CallTimelineEntry }) {
  if (entry.event === 'created') return <>Call logged</>;
  if (entry.event === 'feedback') return <>Feedback given</>;
  return (
    <HStack as="span" gap="2">
      <span>Status changed to</span>
      {entry.callStatus ? <CallStatusBadge status={entry.callStatus} /> : null}
    </HStack>
  );
}

/** The call's life in order: logged, each status it passed through, the feedback. */
function CallTimeline({ entries }: { entries: CallTimelineEntry[] }) {
  if (entries.length === 0) return <EmptyMessage title="Nothing recorded for this call yet" />;
  return (
    <Timeline.Root size="sm" variant="subtle" aria-label="Call timeline">
      {entries.map((entry, index) => {
        const EntryIcon = timelineIcons[entry.event];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id and never reorder
          <Timeline.Item key={index} data-event={entry.event}>
            <Timeline.Connector>
              <Timeline.Separator />
              <Timeline.Indicator>
                <Icon size="xs">
                  <EntryIcon />
                </Icon>
              </Timeline.Indicator>
            </Timeline.Connector>
            <Timeline.Content>
              <Timeline.Title>
                <TimelineTitle entry={entry} />
              </Timeline.Title>
              <Timeline.Description>
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </Timeline.Description>
              {entry.note ? (
                <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap">
                  {entry.note}
                </Text>
              ) : null}
            </Timeline.Content>
          </Timeline.Item>
        );
      })}
    </Timeline.Root>
  );
}

function CallDetailsBody({ call }: { call: CallLogDetail }) {
  const details = call.callDetails;
  return (
    <Stack gap="6">
      <DataList.Root orientation="horizontal" size="sm">
        {[
          ['Direction', <CallDirection key="d" direction={call.referenceType} media={call.media} />],
          ['Number', call.phoneNumber],
          ['Name', call.peerName ?? 'Not a user of this installation'],
          ['Owner', call.owner.name],
          ['Status', <CallStatusBadge key="s" status={details.callStatus} />],
          ['Duration', formatCallDuration(details.callDuration)],
          ['Started', formatDateTime(details.callStartedAt)],
          ['Ended', formatDateTime(details.callEndedAt)],
          ['Source', call.source === 'TWILIO' ? 'Twilio' : 'In-app (local)'],
        ].map(([label, value]) => (
          <DataList.Item key={label as string}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      <Stack gap="2" as="section" aria-label="Feedback">
        <Heading as="h3" size="sm">
          Feedback
        </Heading>
        {call.feedbackData ? (
          <>
            <RatingStars rating={call.feedbackData.rating} />
            {call.feedbackData.text ? (
              // Text, never markup: feedback is whatever the person typed.
              <Text whiteSpace="pre-wrap" data-testid="feedback-text">
                {call.feedbackData.text}
              </Text>
            ) : (
              <Text color="fg.muted">No comment.</Text>
            )}
          </>
        ) : (
          <Text color="fg.muted">No feedback was given for this call.</Text>
        )}
      </Stack>
      <Stack gap="2" as="section" aria-label="Timeline">
        <Heading as="h3" size="sm">
          Timeline
        </Heading>
        <CallTimeline entries={call.timeline} />
      </Stack>
    </Stack>
  );
}

/** One call in a side panel (`?callId=<id>`): its details, feedback and timeline. */
export function CallDrawer({ callId, onClose }: { callId: string | null; onClose: () => void }) {
  // Keep showing the last call while the drawer slides out.
  const [shownId, setShownId] = useState(callId);
  if (callId && callId !== shownId) setShownId(callId);
  const call = useCallDetails(shownId);

  return (
    <Drawer.Root open={!!callId} onOpenChange={(event) => !event.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>
                {call.data ? `Call with ${call.data.peerName ?? call.data.phoneNumber}` : 'Call details'}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {call.isPending ? (
                <LoadingState rows={6} label="Loading the call" />
              ) : call.isError ? (
                <ErrorState message={getErrorMessage(call.error)} onRetry={() => call.refetch()} />
              ) : (
                <CallDetailsBody call={call.data} />
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close call details" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
