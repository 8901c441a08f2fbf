// The header's video-call menu: a small people picker (search by name or e-mail, online first in
// sight) with a "Video call" button per person. Only while the video-call session runs. While it is
// open, who is online follows the signalling server live (presence.ts): someone who signs in turns
// online without reopening it. A seller whose subscription is blocked is listed with the reason and no
// button: hidden, a search for them would look broken; with the reason, the caller knows what to fix.
import {
  Avatar,
  Box,
  Circle,
  HStack,
  IconButton,
  Input,
  Popover,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Video } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { BLOCKED_SELLER_PICKER_REASON } from '../../../contracts/video-calls';
import type { VideoCallHandle } from '../../services/video-call/video-call-session';
import { videoPeopleQuery } from '../../services/video-people';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useVideoCall } from '../../ui/video-call/context';
import { VideoCallButton } from '../../ui/video-call/VideoCallButton';

export function HeaderVideoCallButton() {
  const { handle } = useVideoCall();
  if (!handle) return null;
  return <PeopleMenu handle={handle} />;
}

function PeopleMenu({ handle }: { handle: VideoCallHandle }) {
  const [open, setOpen] = useState(false);
  // A call started from the picker (or a ring coming in) closes it: the call window takes over.
  const idle = useSelector(handle.actor, (snapshot) => snapshot.matches('idle'));
  useEffect(() => {
    if (!idle) setOpen(false);
  }, [idle]);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(details) => setOpen(details.open)}
      positioning={{ placement: 'bottom-end' }}
    >
      <Popover.Trigger asChild>
        <IconButton aria-label="Video call someone" title="Video call someone" variant="ghost" size="sm">
          <Video />
        </IconButton>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {/* A popover is a dialog: it needs a name of its own. */}
          <Popover.Content w="80" aria-label="Video call someone">
            <Popover.Body>{open ? <PeoplePicker handle={handle} /> : null}</Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

/** Who of these people is online: the list's answer, then the signalling server's live word. */
function useLivePresence(handle: VideoCallHandle, userIds: string[]) {
  const [live, setLive] = useState<Record<string, boolean>>({});
  const key = userIds.join(',');
  useEffect(() => {
    if (!key) return;
    return handle.watchPresence(key.split(','), (userId, online) =>
      setLive((known) => (known[userId] === online ? known : { ...known, [userId]: online })),
    );
  }, [handle, key]);
  return live;
}

export function PeoplePicker({ handle }: { handle: VideoCallHandle }) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const people = useQuery(videoPeopleQuery({ search: debounced || undefined, limit: 20 }));
  const searchId = useId();
  const rows = people.data?.result ?? [];
  const live = useLivePresence(
    handle,
    rows.map((person) => person.id),
  );
  return (
    <Stack gap="2">
      <Text asChild fontWeight="semibold">
        <label htmlFor={searchId}>Video call</label>
      </Text>
      <Input
        id={searchId}
        size="sm"
        placeholder="Search people by name or e-mail"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        autoFocus
      />
      {people.isPending ? <Spinner size="sm" aria-label="Loading people" /> : null}
      {people.isError ? (
        <Text color="fg.error" textStyle="sm">
          Could not load people. Try again.
        </Text>
      ) : null}
      {people.isSuccess && rows.length === 0 ? (
        <Text color="fg.muted" textStyle="sm">
          No one matches.
        </Text>
      ) : null}
      <Stack as="ul" gap="1" maxH="72" overflowY="auto" aria-label="People you can video call">
        {rows.map((person) => {
          const online = live[person.id] ?? person.online;
          return (
            <HStack as="li" key={person.id} justify="space-between" gap="2" data-testid="video-person">
              <HStack gap="2" minW="0">
                <Box position="relative">
                  <Avatar.Root size="xs" colorPalette="brand">
                    <Avatar.Fallback name={person.name} />
                    {person.avatarUrl ? <Avatar.Image src={person.avatarUrl} alt="" /> : null}
                  </Avatar.Root>
                  <Circle
                    size="2"
                    position="absolute"
                    right="-0.5"
                    bottom="-0.5"
                    bg={online ? 'green.solid' : 'gray.400'}
                    aria-hidden
                  />
                </Box>
                <Box minW="0">
                  <Text truncate textStyle="sm">
                    {person.name}
                  </Text>
                  {/* A blocked seller's reason wraps: cut short, it would not say why. */}
                  <Text truncate={!person.blocked} textStyle="xs" color="fg.muted">
                    {person.role} ·{' '}
                    {person.blocked ? BLOCKED_SELLER_PICKER_REASON : online ? 'online' : 'offline'}
                  </Text>
                </Box>
              </HStack>
              {person.blocked ? null : (
                <VideoCallButton
                  compact
                  size="xs"
                  peer={{ id: person.id, name: person.name, avatarUrl: person.avatarUrl }}
                />
              )}
            </HStack>
          );
        })}
      </Stack>
    </Stack>
  );
}
