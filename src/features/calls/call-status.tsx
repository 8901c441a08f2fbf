import { Badge, HStack, Icon, Text } from '@chakra-ui/react';
import { PhoneIncoming, PhoneOutgoing, Star, Video } from 'lucide-react';
import type { CallMedia, CallStatus, ReferenceType } from '../../../contracts/calls';
import { type StatusPalette, statusColor } from '../../lib/status-color';

/**
 * A call status's badge colour: by word like every status (SPEC §9) — Connected green, Rejected and
 * Call Disconnected red, Not Picked and Call Ignored orange — except Call Cancelled, which is gray
 * here: the caller hanging up before an answer is a neutral outcome for a call, not a failure as a
 * cancelled payment is.
 */
export function callStatusPalette(status: CallStatus): StatusPalette {
  return status === 'Call Cancelled' ? 'gray' : statusColor(status);
}

export function CallStatusBadge({ status }: { status: CallStatus }) {
  return (
    <Badge colorPalette={callStatusPalette(status)} variant="subtle" data-palette={callStatusPalette(status)}>
      {status}
    </Badge>
  );
}

export const directionLabel = (direction: ReferenceType): string =>
  direction === 'INCOMING' ? 'Incoming' : 'Outgoing';

export function CallDirection({
  direction,
  media = 'voice',
}: {
  direction: ReferenceType;
  media?: CallMedia;
}) {
  const video = media === 'video';
  return (
    <HStack gap="1.5" whiteSpace="nowrap">
      <Icon size="sm" color={direction === 'INCOMING' ? 'blue.fg' : 'green.fg'} aria-hidden="true">
        {video ? <Video /> : direction === 'INCOMING' ? <PhoneIncoming /> : <PhoneOutgoing />}
      </Icon>
      <Text as="span">{directionLabel(direction)}</Text>
      {video ? (
        <Badge size="sm" colorPalette="purple" data-testid="video-call-badge">
          Video
        </Badge>
      ) : null}
    </HStack>
  );
}

/** A 1–5 rating as five stars, read out as "Rated 4 of 5". */
export function RatingStars({ rating }: { rating: number }) {
  return (
    <HStack gap="0.5" role="img" aria-label={`Rated ${rating} of 5`}>
      {[1, 2, 3, 4, 5].map((value) => (
        <Icon
          key={value}
          size="xs"
          color={value <= rating ? 'yellow.solid' : 'fg.subtle'}
          fill={value <= rating ? 'currentColor' : 'none'}
          aria-hidden="true"
        >
          <Star />
        </Icon>
      ))}
    </HStack>
  );
}
