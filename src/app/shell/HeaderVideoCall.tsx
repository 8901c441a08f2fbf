// The header's video-call menu: a small people picker (search by name or e-mail, online first in
// sight) with a "Video call" button per person. Only while the video-call session runs.
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
            <Popover.Body>{open ? <PeoplePicker /> : null}</Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

function PeoplePicker() {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const people = useQuery(videoPeopleQuery({ search: debounced || undefined, limit: 20 }));
  const searchId = useId();
  const rows = people.data?.result ?? [];
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
        {rows.map((person) => (
          <HStack as="li" key={person.id} justify="space-between" gap="2">
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
                  bg={person.online ? 'green.solid' : 'gray.400'}
                  aria-hidden
                />
              </Box>
              <Box minW="0">
                <Text truncate textStyle="sm">
                  {person.name}
                </Text>
                <Text truncate textStyle="xs" color="fg.muted">
                  {person.role} · {person.online ? 'online' : 'offline'}
                </Text>
              </Box>
            </HStack>
            <VideoCallButton
              compact
              size="xs"
              peer={{ id: person.id, name: person.name, avatarUrl: person.avatarUrl }}
            />
          </HStack>
        ))}
      </Stack>
    </Stack>
  );
}
