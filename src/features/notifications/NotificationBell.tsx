import { Badge, Box, Circle, Float } from '@chakra-ui/react';
import { Bell } from 'lucide-react';
import { formatNumber } from '../../../contracts/domain/format';
import { HeaderIconButton } from '../../ui/header-icon-button';

/** The broker connection as the bell reports it (the broker statechart's states, SPEC §4). */
export type LiveStatus = 'notConnected' | 'connected' | 'reconnecting' | 'closed' | 'error';

const LIVE_TEXT: Record<LiveStatus, string> = {
  notConnected: 'Connecting to live updates…',
  connected: 'Live updates on',
  reconnecting: 'Live updates paused — reconnecting',
  closed: 'Live updates off — notifications refresh every minute',
  error: 'Live updates off — notifications refresh every minute',
};

const LIVE_COLOR: Record<LiveStatus, string> = {
  notConnected: 'gray.solid',
  connected: 'green.solid',
  reconnecting: 'orange.solid',
  closed: 'gray.solid',
  error: 'red.solid',
};

export function liveStatusText(status: LiveStatus): string {
  return LIVE_TEXT[status];
}

/** "99+" past 99, so the badge keeps its size. */
export function unreadLabel(count: number): string {
  return count > 99 ? '99+' : String(count);
}

interface NotificationBellProps {
  unreadCount: number;
  /** Something arrived since the drawer was last opened. */
  hasNew: boolean;
  liveStatus: LiveStatus;
  onClick: () => void;
}

/** The header's bell: unread count, a dot for news since last looked, and whether updates are live. */
export function NotificationBell({ unreadCount, hasNew, liveStatus, onClick }: NotificationBellProps) {
  const live = liveStatusText(liveStatus);
  return (
    <HeaderIconButton
      aria-label="Notifications"
      description={`${formatNumber(unreadCount)} unread. ${hasNew ? 'New notifications. ' : ''}${live}.`}
      tooltip={<Box>{unreadCount > 0 ? `${formatNumber(unreadCount)} unread · ${live}` : live}</Box>}
      onClick={onClick}
      data-live={liveStatus}
    >
      <Bell />
      {/* The count is drawn, not read: the description says it, and the name stays "Notifications". */}
      {unreadCount > 0 ? (
        <Float placement="top-end" offsetX="1.5" offsetY="1.5" aria-hidden>
          <Badge
            size="xs"
            variant="solid"
            colorPalette="red"
            rounded="full"
            minW="4"
            justifyContent="center"
            data-testid="notification-count"
          >
            {unreadLabel(unreadCount)}
          </Badge>
        </Float>
      ) : null}
      {hasNew ? (
        <Float placement="top-start" offsetX="1.5" offsetY="1.5">
          <Circle size="2" bg="brand.solid" data-testid="notify-dot" />
        </Float>
      ) : null}
      <Float placement="bottom-end" offsetX="2" offsetY="2">
        <Circle
          size="1.5"
          bg={LIVE_COLOR[liveStatus]}
          outline="2px solid"
          outlineColor="bg.panel"
          data-testid="live-status"
        />
      </Float>
    </HeaderIconButton>
  );
}
