// This tab's camera, microphone and screen (video-call-session.ts): the ringing card's preview, the
// call's stream, device switches in place, and screen sharing in the camera's place.
import { mediaErrorMessage } from './media';
import { type CallResources, type Session, send, setMedia, snapshot } from './session-state';

export const NO_VIDEO_TO_SHARE_MESSAGE = 'Screen sharing needs a call with video.';

export function stopPreviewTracks(session: Session) {
  const { preview } = session.mediaState;
  for (const track of preview?.getTracks() ?? []) track.stop();
  if (preview) setMedia(session, { preview: null });
}

function constraints(session: Session, audioOnly: boolean): MediaStreamConstraints {
  const { microphoneId, cameraId } = session.mediaState;
  return {
    audio: microphoneId ? { deviceId: { exact: microphoneId } } : true,
    video: audioOnly ? false : cameraId ? { deviceId: { exact: cameraId } } : true,
  };
}

async function refreshDevices(session: Session) {
  try {
    const devices = await session.media.enumerateDevices();
    setMedia(session, {
      cameras: devices.filter((device) => device.kind === 'videoinput'),
      microphones: devices.filter((device) => device.kind === 'audioinput'),
    });
  } catch {
    // No device list (an old browser): the pickers stay empty, the defaults are used.
  }
}

/** Camera and microphone for a call: the preview's when it matches, otherwise new ones. */
export async function acquire(
  session: Session,
  call: CallResources,
  audioOnly: boolean,
): Promise<MediaStream | null> {
  const preview = session.mediaState.preview;
  if (preview && (!audioOnly || preview.getVideoTracks().length === 0)) {
    setMedia(session, { preview: null });
    call.stream = preview;
  } else {
    stopPreviewTracks(session);
    try {
      call.stream = await session.media.getUserMedia(constraints(session, audioOnly));
    } catch (error) {
      if (!call.aborted)
        send(session, { type: 'videoCall.mediaRefused', message: mediaErrorMessage(error, audioOnly) });
      return null;
    }
  }
  if (call.aborted) {
    for (const track of call.stream.getTracks()) track.stop();
    return null;
  }
  call.cameraTrack = call.stream.getVideoTracks()[0] ?? null;
  setMedia(session, { local: call.stream });
  void refreshDevices(session); // labels are known once a permission was given
  return call.stream;
}

/** The ringing card's preview: camera and microphone as chosen, before accepting. */
export async function startPreview(session: Session) {
  if (session.mediaState.preview) return;
  try {
    const preview = await session.media.getUserMedia(constraints(session, false));
    if (snapshot(session).value !== 'incoming' && snapshot(session).value !== 'mediaRefused') {
      for (const track of preview.getTracks()) track.stop();
      return;
    }
    setMedia(session, { preview, notice: null });
    void refreshDevices(session);
  } catch (error) {
    setMedia(session, { notice: mediaErrorMessage(error, false) });
  }
}

/** Pick a camera or microphone: in a call the track is replaced in place (no renegotiation). */
export async function selectDevice(session: Session, kind: 'camera' | 'microphone', deviceId: string) {
  setMedia(session, kind === 'camera' ? { cameraId: deviceId } : { microphoneId: deviceId });
  const call = session.current;
  const stream = call?.stream ?? session.mediaState.preview;
  if (!stream) return;
  const old = kind === 'camera' ? stream.getVideoTracks()[0] : stream.getAudioTracks()[0];
  if (!old) return;
  let fresh: MediaStreamTrack | undefined;
  try {
    const got = await session.media.getUserMedia(
      kind === 'camera'
        ? { video: { deviceId: { exact: deviceId } } }
        : { audio: { deviceId: { exact: deviceId } } },
    );
    fresh = kind === 'camera' ? got.getVideoTracks()[0] : got.getAudioTracks()[0];
  } catch (error) {
    setMedia(session, { notice: mediaErrorMessage(error, kind === 'microphone') });
    return;
  }
  if (!fresh) return;
  fresh.enabled = old.enabled; // muted stays muted, a camera turned off stays off
  // In a call the sender's track is replaced in place: no renegotiation, the other side sees no gap.
  // While the screen is shared the camera track is not being sent: it is swapped back on stop.
  if (call?.peer && !(kind === 'camera' && call.screenTrack)) call.peer.replaceTrack(old, fresh, stream);
  stream.removeTrack(old);
  stream.addTrack(fresh);
  old.stop();
  if (call && kind === 'camera') call.cameraTrack = fresh;
  setMedia(session, { notice: null });
}

export async function startScreenShare(session: Session) {
  const call = session.current;
  if (!call?.peer || !call.stream || !call.cameraTrack) {
    setMedia(session, { notice: NO_VIDEO_TO_SHARE_MESSAGE });
    return;
  }
  let screen: MediaStream;
  try {
    screen = await session.media.getDisplayMedia({ video: true, audio: false });
  } catch {
    return; // the user closed the browser's picker: nothing to say
  }
  const track = screen.getVideoTracks()[0];
  if (!track || call.aborted || !call.peer) {
    for (const t of screen.getTracks()) t.stop();
    return;
  }
  call.peer.replaceTrack(call.cameraTrack, track, call.stream);
  call.screenTrack = track;
  // The browser's own "Stop sharing" bar ends the track.
  track.addEventListener('ended', () => {
    if (call.screenTrack === track) send(session, { type: 'videoCall.shareStopped' });
  });
  setMedia(session, { local: new MediaStream([track, ...call.stream.getAudioTracks()]) });
  send(session, { type: 'videoCall.shareStarted' });
}

/** The camera's track back where the screen's was (the machine already counts the share as over). */
export function stopScreenShare(session: Session) {
  const call = session.current;
  if (!call?.screenTrack || !call.stream || !call.cameraTrack) return;
  call.peer?.replaceTrack(call.screenTrack, call.cameraTrack, call.stream);
  call.screenTrack.stop();
  call.screenTrack = null;
  setMedia(session, { local: call.stream });
}
