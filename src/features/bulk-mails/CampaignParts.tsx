// Small pieces the campaigns list and the campaign page share: the status badge (SPEC §9 colours by
// word), the progress of a send, and times as people read them.
import { Badge, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import {
  type CampaignSummary,
  campaignStatusLabels,
  recipientStateLabels,
} from '../../../contracts/campaigns';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import type { CampaignStatus, RecipientState } from '../../../contracts/marketing';
import { relativeTime } from '../../lib/relative-time';
import { statusColor } from '../../lib/status-color';

export function CampaignStatusBadge({
  status,
  size = 'sm',
}: {
  status: CampaignStatus;
  size?: 'sm' | 'md' | 'lg';
}) {
  const label = campaignStatusLabels[status];
  return (
    <Badge colorPalette={statusColor(label)} size={size} data-testid="campaign-status">
      {label}
    </Badge>
  );
}

export function RecipientStateBadge({ state }: { state: RecipientState }) {
  const label = recipientStateLabels[state];
  return (
    <Badge colorPalette={statusColor(label)} variant="subtle">
      {label}
    </Badge>
  );
}

/** Recipients done with (sent, failed for good, skipped) of all of them; deferred ones are still to go. */
export function progressOf(campaign: Pick<CampaignSummary, 'total' | 'counts'>) {
  const { sent, failed, skipped, deferred } = campaign.counts;
  const done = sent + failed + skipped;
  const percent = campaign.total > 0 ? Math.min(100, Math.round((done / campaign.total) * 100)) : 0;
  return { done, percent, deferred };
}

/** A send's progress bar with "1,204 of 3,000 · 40%" and the recipients waiting for a retry. */
export function CampaignProgress({
  campaign,
  size = 'sm',
}: {
  campaign: Pick<CampaignSummary, 'name' | 'status' | 'total' | 'counts'>;
  size?: 'xs' | 'sm' | 'md';
}) {
  const { done, percent, deferred } = progressOf(campaign);
  const live = campaign.status === 'sending';
  return (
    <Stack gap="1" minW="36" aria-live={live ? 'polite' : undefined}>
      <Progress.Root
        value={percent}
        size={size}
        colorPalette={campaign.status === 'paused' ? 'orange' : 'brand'}
        striped={live}
        animated={live}
      >
        <Progress.Track aria-label={`${campaign.name} progress`}>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
        <Text data-testid="progress-text">
          {formatNumber(done)} of {formatNumber(campaign.total)} · {percent}%
        </Text>
        {deferred ? <Text color="yellow.fg">{formatNumber(deferred)} waiting for a retry</Text> : null}
      </HStack>
    </Stack>
  );
}

/** "3 hrs ago" with the full date and time on hover; a dash when there is none. */
export function When({ at, fallback = '—' }: { at: string | null; fallback?: string }) {
  if (!at) return <Text color="fg.muted">{fallback}</Text>;
  return (
    <Text as="span" title={formatDateTime(at)} whiteSpace="nowrap">
      {relativeTime(at)}
    </Text>
  );
}
