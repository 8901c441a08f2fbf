// The profile picture: a preview of the chosen file at once, the upload's real progress, and the
// cropped square the server stored. The header's avatar follows (the current user is refetched).
import { Avatar, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../../contracts/users';
import { getErrorMessage } from '../../../services/http';
import { FormMessage } from '../../../ui/form-parts';
import { useUploadAvatar } from './profile-api';

const MB = AVATAR_MAX_BYTES / (1024 * 1024);

export function ProfileAvatar({ name, avatar }: { name: string; avatar: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const [percent, setPercent] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A preview's object URL is released when the next one replaces it or the section closes.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const send = (file: File) => {
    setProblem(null);
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) {
      setProblem('Choose a PNG, JPEG or WebP picture.');
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      setProblem(`The picture is larger than ${MB} MB.`);
      return;
    }
    setPreview(URL.createObjectURL(file));
    setPercent(0);
    upload.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: () => {
          setPercent(100);
          setPreview(null);
        },
        onError: (error) => {
          setPercent(null);
          setPreview(null);
          setProblem(getErrorMessage(error));
        },
      },
    );
  };

  const shown = preview ?? avatar;
  return (
    <Stack gap="3">
      <HStack gap="4">
        <Avatar.Root size="2xl">
          <Avatar.Fallback name={name} />
          {shown ? (
            <Avatar.Image src={shown} alt="Your profile picture" data-testid="profile-avatar" />
          ) : null}
        </Avatar.Root>
        <Stack gap="1">
          <input
            ref={input}
            type="file"
            accept={AVATAR_TYPES.join(',')}
            hidden
            aria-label="Profile picture file"
            data-testid="profile-avatar-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) send(file);
            }}
          />
          <Button
            size="sm"
            variant="outline"
            loading={upload.isPending}
            loadingText="Uploading"
            onClick={() => input.current?.click()}
          >
            <Upload /> Change picture
          </Button>
          <Text fontSize="xs" color="fg.muted">
            PNG, JPEG or WebP, up to {MB} MB. Cropped to a square.
          </Text>
        </Stack>
      </HStack>
      {percent !== null ? (
        <Progress.Root value={percent} size="sm" colorPalette={upload.isSuccess ? 'green' : 'brand'}>
          <HStack justify="space-between" mb="1">
            <Progress.Label fontSize="sm">
              {upload.isSuccess ? 'Picture saved' : 'Uploading picture…'}
            </Progress.Label>
            <Progress.ValueText fontSize="sm" />
          </HStack>
          <Progress.Track aria-label="Profile picture upload progress" data-testid="profile-avatar-progress">
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <FormMessage status="error">{problem}</FormMessage>
    </Stack>
  );
}
