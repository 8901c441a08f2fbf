// The video call's views over whatever page is open (issue 13): the ringing card with its prejoin
// (preview and device pick), and the call window (remote video large, own video small, status, timer,
// connection quality, controls). They only read the session's statechart and media store and send the
// user's events; the session does the rest.
import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  chakra,
  Field,
  Flex,
  HStack,
  IconButton,
  NativeSelect,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import {
  Mic,
  MicOff,
  MonitorUp,
  PhoneOff,
  ScreenShareOff,
  Settings2,
  Video,
  VideoOff,
  WifiOff,
} from 'lucide-react';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { formatCallDuration } from '../../lib/call-duration';
import type { VideoCallState } from '../../machines/video-call.machine';
import type { VideoCallHandle, VideoMediaState } from '../../services/video-call/video-call-session';
import { RINGING_CARD_PLACEMENT } from '../call/ringing-card';

type Snapshot = ReturnType<VideoCallHandle['actor']['getSnapshot']>;
const stateOf = (snapshot: Snapshot) => snapshot.value as VideoCallState;

export function useVideoMedia(handle: VideoCallHandle): VideoMediaState {
  return useSyncExternalStore(handle.subscribeMedia, handle.media, handle.media);
}

export function VideoCallLayer({ handle }: { handle: VideoCallHandle }) {
  const state = useSelector(handle.actor, stateOf);
  const direction = useSelector(handle.actor, (snapshot) => snapshot.context.direction);
  if (state === 'idle') return null;
  // In a portal mounted when the call begins: a modal dialog or drawer open at that moment hides what
  // was on the page before it from assistive technology and the pointer; a layer added after it is not
  // hidden, and using it dismisses that dialog.
  return (
    <Portal>
      {state === 'incoming' || (state === 'mediaRefused' && direction === 'incoming') ? (
        <RingingCard handle={handle} />
      ) : (
        <CallWindow handle={handle} />
      )}
    </Portal>
  );
}

/** A stream in a <video>; the own picture is muted (no echo) and mirrored like a mirror. */
function StreamVideo({
  stream,
  version,
  own,
  label,
  testId,
}: {
  stream: MediaStream | null;
  version: number;
  own?: boolean;
  label: string;
  testId: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a device switch changes the stream's tracks in place (version)
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    // play() answers a promise that rejects when autoplay is refused; the element shows the first
    // frame anyway and plays on the next user gesture.
    if (stream) Promise.resolve(video.play?.()).catch(() => {});
  }, [stream, version]);
  return (
    <chakra.video
      ref={ref}
      aria-label={label}
      data-testid={testId}
      autoPlay
      playsInline
      muted={own}
      width="full"
      height="full"
      objectFit={own ? 'cover' : 'contain'}
      transform={own ? 'scaleX(-1)' : undefined}
      bg="black"
      borderRadius="md"
    />
  );
}

function PersonAvatar({
  name,
  avatarUrl,
  size = 'lg',
}: {
  name: string;
  avatarUrl: string | null;
  size?: 'md' | 'lg' | 'xl';
}) {
  return (
    <Avatar.Root size={size} colorPalette="brand">
      <Avatar.Fallback name={name} />
      {avatarUrl ? <Avatar.Image src={avatarUrl} alt="" /> : null}
    </Avatar.Root>
  );
}

/** One device select: the browser's default first, then each device by its label (or its place). */
function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: 'Camera' | 'Microphone';
  devices: MediaDeviceInfo[];
  value: string | null;
  onChange: (deviceId: string) => void;
}) {
  const id = useId();
  return (
    <Field.Root>
      <Field.Label htmlFor={id}>{label}</Field.Label>
      <NativeSelect.Root size="sm" disabled={devices.length === 0}>
        <NativeSelect.Field id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
          <option value="">{`Default ${label.toLowerCase()}`}</option>
          {devices.map((device, index) => (
            <option key={device.deviceId || index} value={device.deviceId}>
              {device.label || `${label} ${index + 1}`}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function DevicePicker({ handle, media }: { handle: VideoCallHandle; media: VideoMediaState }) {
  return (
    <Stack gap="2">
      <DeviceSelect
        label="Camera"
        devices={media.cameras}
        value={media.cameraId}
        onChange={(deviceId) => void handle.selectDevice('camera', deviceId)}
      />
      <DeviceSelect
        label="Microphone"
        devices={media.microphones}
        value={media.microphoneId}
        onChange={(deviceId) => void handle.selectDevice('microphone', deviceId)}
      />
    </Stack>
  );
}

/** The callee's card: who calls, Accept and Decline, and the prejoin (preview, devices). */
function RingingCard({ handle }: { handle: VideoCallHandle }) {
  const state = useSelector(handle.actor, stateOf);
  const peer = useSelector(handle.actor, (snapshot) => snapshot.context.peer);
  const message = useSelector(handle.actor, (snapshot) => snapshot.context.message);
  const media = useVideoMedia(handle);
  const [prejoin, setPrejoin] = useState(false);
  const titleId = useId();
  const name = peer?.name ?? '';

  const togglePrejoin = () => {
    if (prejoin) handle.stopPreview();
    else void handle.startPreview();
    setPrejoin(!prejoin);
  };

  return (
    <Card.Root
      role="alertdialog"
      aria-labelledby={titleId}
      data-testid="video-ringing-card"
      {...RINGING_CARD_PLACEMENT}
      // A modal dialog or drawer that is open turns pointer events off outside itself; a ringing call
      // and the call window stay usable over it (interacting with them closes that dialog).
      pointerEvents="auto"
      borderColor="green.solid"
    >
      <Card.Body gap="3">
        <HStack gap="3">
          <PersonAvatar name={name} avatarUrl={peer?.avatarUrl ?? null} />
          <Box>
            <Card.Title id={titleId}>Incoming video call</Card.Title>
            <Text>{name} is video calling you</Text>
          </Box>
        </HStack>
        {state === 'mediaRefused' ? (
          <Text role="alert" color="fg.error" textStyle="sm">
            {message}
          </Text>
        ) : (
          <Button
            size="xs"
            variant="ghost"
            alignSelf="flex-start"
            onClick={togglePrejoin}
            aria-expanded={prejoin}
          >
            <Settings2 /> {prejoin ? 'Hide camera and microphone' : 'Check camera and microphone'}
          </Button>
        )}
        {prejoin && state === 'incoming' ? (
          <Stack gap="2">
            <Box height="40">
              <StreamVideo
                stream={media.preview}
                version={media.version}
                own
                label="Your camera preview"
                testId="video-preview"
              />
            </Box>
            {media.notice ? (
              <Text role="alert" color="fg.error" textStyle="sm">
                {media.notice}
              </Text>
            ) : null}
            <DevicePicker handle={handle} media={media} />
          </Stack>
        ) : null}
      </Card.Body>
      <Card.Footer gap="2" justifyContent="flex-end">
        <Button
          size="sm"
          colorPalette="red"
          variant="outline"
          onClick={() => handle.actor.send({ type: 'videoCall.decline' })}
        >
          Decline
        </Button>
        {state === 'mediaRefused' ? (
          <Button
            size="sm"
            colorPalette="green"
            onClick={() => handle.actor.send({ type: 'videoCall.audioOnly' })}
          >
            Accept with audio only
          </Button>
        ) : (
          <Button
            size="sm"
            colorPalette="green"
            onClick={() => handle.actor.send({ type: 'videoCall.accept' })}
          >
            <Video /> Accept
          </Button>
        )}
      </Card.Footer>
    </Card.Root>
  );
}

function CallTimer({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text
      as="span"
      fontVariantNumeric="tabular-nums"
      data-testid="video-call-timer"
      aria-label="Call duration"
    >
      {formatCallDuration((now - since) / 1000)}
    </Text>
  );
}

function statusText(state: VideoCallState, name: string): string {
  switch (state) {
    case 'preparing':
      return 'Starting your camera…';
    case 'outgoing':
      return `Calling ${name}…`;
    case 'accepting':
    case 'connecting':
      return 'Connecting…';
    case 'inCall':
      return name;
    case 'ended':
      return 'Call ended';
    case 'declined':
      return 'Call declined';
    case 'notAnswered':
      return 'No answer';
    case 'busy':
      return 'Busy';
    case 'failed':
      return 'Call failed';
    case 'mediaRefused':
      return 'Camera or microphone blocked';
    default:
      return '';
  }
}

const OUTCOMES: VideoCallState[] = ['declined', 'notAnswered', 'busy', 'failed'];

/** The caller's and the connected call's window. */
function CallWindow({ handle }: { handle: VideoCallHandle }) {
  const state = useSelector(handle.actor, stateOf);
  const context = useSelector(handle.actor, (snapshot) => snapshot.context);
  const media = useVideoMedia(handle);
  const titleId = useId();
  const [devicesOpen, setDevicesOpen] = useState(false);
  const name = context.peer?.name ?? '';
  const live = state === 'connecting' || state === 'inCall';
  const outcome = OUTCOMES.includes(state);
  const send = handle.actor.send.bind(handle.actor);

  return (
    <Box
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      data-testid="video-call-window"
      data-state={state}
      position="fixed"
      bottom={{ base: '0', md: '4' }}
      right={{ base: '0', md: '4' }}
      left={{ base: '0', md: 'auto' }}
      width={{ md: '2xl' }}
      zIndex={1700}
      pointerEvents="auto"
      bg="bg.panel"
      borderWidth="1px"
      borderRadius={{ base: 'none', md: 'lg' }}
      boxShadow="xl"
      p="3"
    >
      <Flex justify="space-between" align="center" mb="2" gap="2" wrap="wrap">
        <HStack gap="2">
          <PersonAvatar name={name} avatarUrl={context.peer?.avatarUrl ?? null} size="md" />
          <Box>
            <Text id={titleId} fontWeight="semibold" data-testid="video-call-status">
              {statusText(state, name)}
            </Text>
            {state === 'inCall' && context.connectedAt !== null ? (
              <CallTimer since={context.connectedAt} />
            ) : null}
          </Box>
        </HStack>
        <HStack gap="2">
          {context.reconnecting ? (
            <Badge colorPalette="orange" role="status">
              <WifiOff size={14} /> Reconnecting…
            </Badge>
          ) : null}
          {state === 'inCall' && context.quality !== 'good' && !context.reconnecting ? (
            <Badge
              colorPalette={context.quality === 'bad' ? 'red' : 'orange'}
              role="status"
              data-testid="video-call-quality"
            >
              {context.quality === 'bad' ? 'Bad connection' : 'Poor connection'}
            </Badge>
          ) : null}
        </HStack>
      </Flex>

      {outcome || state === 'mediaRefused' ? (
        <Stack gap="3" py="2">
          <Text role="alert">{context.message}</Text>
          <HStack justify="flex-end" gap="2">
            {state === 'mediaRefused' ? (
              <>
                <Button size="sm" variant="outline" onClick={() => send({ type: 'videoCall.decline' })}>
                  Cancel
                </Button>
                <Button size="sm" colorPalette="green" onClick={() => send({ type: 'videoCall.audioOnly' })}>
                  Call with audio only
                </Button>
              </>
            ) : (
              <Button size="sm" onClick={() => send({ type: 'videoCall.dismiss' })}>
                Close
              </Button>
            )}
          </HStack>
        </Stack>
      ) : (
        <Box
          position="relative"
          height={{ base: '60vh', md: '96' }}
          bg="black"
          borderRadius="md"
          overflow="hidden"
        >
          <StreamVideo
            stream={media.remote}
            version={media.version}
            label={`${name}'s video`}
            testId="remote-video"
          />
          {live && media.remoteCameraOff ? (
            <Flex
              position="absolute"
              inset="0"
              align="center"
              justify="center"
              direction="column"
              gap="2"
              color="white"
            >
              <PersonAvatar name={name} avatarUrl={context.peer?.avatarUrl ?? null} size="xl" />
              <Text data-testid="remote-camera-off">{name} turned their camera off</Text>
            </Flex>
          ) : null}
          {live && media.remoteMuted ? (
            <Badge position="absolute" top="2" left="2" colorPalette="red" data-testid="remote-muted">
              <MicOff size={14} /> {name}'s microphone is off
            </Badge>
          ) : null}
          <Box
            position="absolute"
            right="2"
            bottom="2"
            width={{ base: '28', md: '40' }}
            height={{ base: '20', md: '28' }}
            borderWidth="2px"
            borderColor="whiteAlpha.700"
            borderRadius="md"
            overflow="hidden"
          >
            <StreamVideo
              stream={media.local}
              version={media.version}
              own={!context.sharing}
              label="Your video"
              testId="local-video"
            />
          </Box>
        </Box>
      )}

      {devicesOpen && live ? (
        <Box mt="2">
          <DevicePicker handle={handle} media={media} />
        </Box>
      ) : null}
      {media.notice && live ? (
        <Text role="alert" color="fg.error" textStyle="sm" mt="2">
          {media.notice}
        </Text>
      ) : null}

      {outcome || state === 'mediaRefused' ? null : (
        <HStack justify="center" gap="2" mt="3" wrap="wrap">
          {live ? (
            <>
              <IconButton
                aria-label={context.muted ? 'Unmute microphone' : 'Mute microphone'}
                aria-pressed={context.muted}
                variant={context.muted ? 'solid' : 'outline'}
                colorPalette={context.muted ? 'red' : 'gray'}
                onClick={() => send({ type: 'videoCall.toggleMute' })}
              >
                {context.muted ? <MicOff /> : <Mic />}
              </IconButton>
              <IconButton
                aria-label={context.cameraOff ? 'Turn camera on' : 'Turn camera off'}
                aria-pressed={context.cameraOff}
                variant={context.cameraOff ? 'solid' : 'outline'}
                colorPalette={context.cameraOff ? 'red' : 'gray'}
                disabled={context.audioOnly}
                onClick={() => send({ type: 'videoCall.toggleCamera' })}
              >
                {context.cameraOff ? <VideoOff /> : <Video />}
              </IconButton>
              <IconButton
                aria-label={context.sharing ? 'Stop sharing the screen' : 'Share the screen'}
                aria-pressed={context.sharing}
                variant={context.sharing ? 'solid' : 'outline'}
                disabled={state !== 'inCall' || context.audioOnly}
                onClick={() =>
                  send({ type: context.sharing ? 'videoCall.stopShare' : 'videoCall.startShare' })
                }
              >
                {context.sharing ? <ScreenShareOff /> : <MonitorUp />}
              </IconButton>
              <IconButton
                aria-label="Camera and microphone settings"
                aria-expanded={devicesOpen}
                variant="outline"
                onClick={() => setDevicesOpen(!devicesOpen)}
              >
                <Settings2 />
              </IconButton>
            </>
          ) : null}
          <Button colorPalette="red" onClick={() => handle.hangup()} disabled={state === 'ended'}>
            <PhoneOff /> {live || state === 'ended' ? 'Hang up' : 'Cancel'}
          </Button>
        </HStack>
      )}
    </Box>
  );
}
