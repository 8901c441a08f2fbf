// "Video call" where people are listed (a seller's drawer, the staff list, a help chat's staff, the
// header's people picker): starts a call with that person through the running session.
import { Button, IconButton } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Video } from 'lucide-react';
import type { VideoPeer } from '../../machines/video-call.machine';
import type { VideoCallHandle } from '../../services/video-call/video-call-session';
import { useVideoCall } from './context';

export interface VideoCallButtonProps {
  peer: VideoPeer;
  /** An icon-only button (in dense lists); its label says whom it calls. */
  compact?: boolean;
  size?: 'xs' | 'sm' | 'md';
}

export function VideoCallButton(props: VideoCallButtonProps) {
  const { handle } = useVideoCall();
  // Without a session (no calls permission, still loading) there is nothing to press.
  if (!handle) return null;
  return <ReadyVideoCallButton handle={handle} {...props} />;
}

function ReadyVideoCallButton({
  handle,
  peer,
  compact,
  size = 'sm',
}: VideoCallButtonProps & { handle: VideoCallHandle }) {
  const idle = useSelector(handle.actor, (snapshot) => snapshot.matches('idle'));
  const self = useSelector(handle.actor, (snapshot) => snapshot.context.selfId === peer.id);
  const label = `Video call ${peer.name}`;
  const start = () => handle.call(peer);
  if (self) return null; // nobody calls themselves (the server would refuse it)
  if (compact) {
    return (
      <IconButton
        aria-label={label}
        title={label}
        size={size}
        variant="ghost"
        disabled={!idle}
        onClick={start}
      >
        <Video />
      </IconButton>
    );
  }
  return (
    <Button size={size} variant="outline" aria-label={label} disabled={!idle} onClick={start}>
      <Video /> Video call
    </Button>
  );
}
