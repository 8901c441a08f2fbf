// The profile picture: a preview of the chosen file at once, the upload's real progress, and the
// cropped square the server stored. The header's avatar follows (the current user is refetched).
import { Avatar } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../../contracts/users';
import { ImageUploadPanel, type ProgressText } from '../../../ui/image-upload-panel';
import { useUploadAvatar } from './profile-api';

const MB = AVATAR_MAX_BYTES / (1024 * 1024);

/** The server takes these types and sizes only: say so before sending. */
function avatarProblem(file: File): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'Choose a PNG, JPEG or WebP picture.';
  if (file.size > AVATAR_MAX_BYTES) return `The picture is larger than ${MB} MB.`;
  return null;
}

const pictureProgressText: ProgressText = (phase) =>
  phase === 'done' ? 'Picture saved' : 'Uploading picture…';

export function ProfileAvatar({ name, avatar }: { name: string; avatar: string | null }) {
  const upload = useUploadAvatar();
  const [preview, setPreview] = useState<string | null>(null);
  // A preview's object URL is released when the next one replaces it or the section closes.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const send = async (file: File, onProgress: (fraction: number) => void) => {
    setPreview(URL.createObjectURL(file));
    try {
      await upload.mutateAsync({ file, onProgress });
    } finally {
      setPreview(null);
    }
  };

  const shown = preview ?? avatar;
  return (
    <ImageUploadPanel
      image={
        <Avatar.Root size="2xl">
          <Avatar.Fallback name={name} />
          {shown ? (
            <Avatar.Image src={shown} alt="Your profile picture" data-testid="profile-avatar" />
          ) : null}
        </Avatar.Root>
      }
      hint={`PNG, JPEG or WebP, up to ${MB} MB. Cropped to a square.`}
      canUpload
      buttonText="Change picture"
      inputLabel="Profile picture file"
      inputTestId="profile-avatar-input"
      progressLabel="Profile picture upload progress"
      progressTestId="profile-avatar-progress"
      progressText={pictureProgressText}
      check={avatarProblem}
      upload={send}
    />
  );
}
