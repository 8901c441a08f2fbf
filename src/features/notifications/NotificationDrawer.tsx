import {
  Box,
  Button,
  Circle,
  CloseButton,
  chakra,
  Drawer,
  Flex,
  HStack,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Download, ExternalLink } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { formatDateTime, formatNumber, plural } from '../../../contracts/domain/format';
import type { Notification } from '../../../contracts/notifications';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import {
  downloadFile,
  isDownloadLink,
  isInAppPath,
  notificationsOf,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
} from './api';

/** The current time, ticking every 30 s while shown, so "2 mins ago" stays true with the drawer open. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function safeRelativeTime(date: string, now: number): string {
  try {
    return relativeTime(date, now);
  } catch {
    return '';
  }
}

interface ItemProps {
  item: Notification;
  now: number;
  busy: boolean;
  onOpen: (item: Notification) => void;
  onMarkRead: (item: Notification) => void;
}

/** One notification: its text is rendered as text, never as HTML. */
function NotificationItem({ item, now, busy, onOpen, onMarkRead }: ItemProps) {
  const download = item.link ? isDownloadLink(item.link) : false;
  const page = item.link ? isInAppPath(item.link) : false;
  return (
    <Box
      as="li"
      listStyleType="none"
      data-testid="notification-item"
      data-read={item.read}
      rounded="md"
      borderWidth="1px"
      borderColor={item.read ? 'border.muted' : 'brand.muted'}
      bg={item.read ? 'bg.panel' : 'brand.subtle'}
    >
      <Flex gap="2" align="start" p="3">
        <Circle size="2" mt="2" flexShrink={0} bg={item.read ? 'transparent' : 'brand.solid'} aria-hidden />
        <chakra.button
          type="button"
          flex="1"
          minW="0"
          textAlign="start"
          cursor="pointer"
          rounded="sm"
          focusRing="outside"
          onClick={() => onOpen(item)}
          aria-busy={busy}
        >
          <Text fontWeight={item.read ? 'normal' : 'semibold'} lineClamp={2}>
            {item.title}
            {item.read ? null : <chakra.span srOnly> (unread)</chakra.span>}
          </Text>
          {item.body ? (
            <Text fontSize="sm" color="fg.muted" lineClamp={3} whiteSpace="pre-line">
              {item.body}
            </Text>
          ) : null}
          <HStack gap="3" mt="1" fontSize="xs" color="fg.subtle">
            <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
              {safeRelativeTime(item.createdAt, now)}
            </time>
            {download ? (
              <HStack gap="1" color="brand.fg">
                {busy ? <Spinner size="xs" /> : <Download size={12} aria-hidden />}
                <span>Download file</span>
              </HStack>
            ) : page ? (
              <HStack gap="1" color="brand.fg">
                <ExternalLink size={12} aria-hidden />
                <span>Open page</span>
              </HStack>
            ) : null}
          </HStack>
        </chakra.button>
        {item.read ? null : (
          <Button size="xs" variant="ghost" flexShrink={0} onClick={() => onMarkRead(item)}>
            Mark as read
          </Button>
        )}
      </Flex>
    </Box>
  );
}

interface NotificationDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The list behind the bell: newest first, 20 at a time, with mark read / mark all read. */
export function NotificationDrawer({ open, onOpenChange }: NotificationDrawerProps) {
  const [, navigate] = useLocation();
  const list = useNotifications();
  const { items, count, unreadCount } = notificationsOf(list.data);
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const now = useNow(open);
  const [downloading, setDownloading] = useState<string | null>(null);

  const openItem = async (item: Notification) => {
    if (!item.read) markRead.mutate([item.id]);
    const link = item.link;
    if (!link) return;
    if (isDownloadLink(link)) {
      if (downloading) return;
      setDownloading(item.id);
      try {
        await downloadFile(link);
      } catch (error) {
        notify({ type: 'error', title: getErrorMessage(error) });
      } finally {
        setDownloading(null);
      }
    } else if (isInAppPath(link)) {
      onOpenChange(false);
      navigate(link);
    }
  };

  return (
    <Drawer.Root open={open} onOpenChange={(event) => onOpenChange(event.open)} placement="end" size="sm">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Flex align="center" justify="space-between" gap="3" w="full" pe="8">
                <Drawer.Title>Notifications</Drawer.Title>
                <Button
                  size="xs"
                  variant="outline"
                  disabled={unreadCount === 0}
                  loading={markAllRead.isPending}
                  onClick={() => markAllRead.mutate(undefined)}
                >
                  Mark all as read
                </Button>
              </Flex>
            </Drawer.Header>
            <Drawer.Body>
              {list.isPending ? (
                <LoadingState rows={5} label="Loading notifications" />
              ) : list.isError && items.length === 0 ? (
                <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
              ) : items.length === 0 ? (
                <EmptyMessage
                  title="No notifications yet"
                  description="Finished exports and other news for you appear here."
                />
              ) : (
                <Stack gap="3">
                  <Text fontSize="sm" color="fg.muted" aria-live="polite">
                    {unreadCount > 0
                      ? `${formatNumber(unreadCount)} unread of ${formatNumber(count)}`
                      : `${plural(count, 'notification')}, all read`}
                  </Text>
                  <Stack as="ul" gap="2" aria-label="Notifications" m="0" p="0">
                    {items.map((item) => (
                      <NotificationItem
                        key={item.id}
                        item={item}
                        now={now}
                        busy={downloading === item.id}
                        onOpen={openItem}
                        onMarkRead={(read) => markRead.mutate([read.id])}
                      />
                    ))}
                  </Stack>
                  {list.hasNextPage ? (
                    <Button
                      variant="outline"
                      size="sm"
                      alignSelf="center"
                      loading={list.isFetchingNextPage}
                      onClick={() => list.fetchNextPage()}
                    >
                      Load more
                    </Button>
                  ) : null}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close notifications" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
