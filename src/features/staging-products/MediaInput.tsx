import { Box, Button, HStack, IconButton, Image, Progress, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft, ArrowRight, Film, Star, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import {
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGE_TYPES,
  PRODUCT_VIDEO_MAX_BYTES,
  PRODUCT_VIDEO_TYPES,
  type ProductMedia,
} from '../../../contracts/product-media';
import { formatBytes } from '../../lib/file-limits';
import { getErrorMessage } from '../../services/http';
import { uploadWithProgress } from '../../services/upload-with-progress';
import type { MediaItem } from './attribute-form';

export const MEDIA_UPLOAD_URL = '/api/v1/stagingProducts/media';

interface Uploading {
  name: string;
  percent: number;
}

/**
 * Images or videos: upload with a real progress bar (the browser's own upload events), reorder, make
 * one the main image (the first), remove. The files are checked here for type and size first; the
 * server checks them again by their content.
 */
export function MediaInput({
  kind,
  multiple,
  value,
  onChange,
  sellerId,
  label,
  inputTestId,
  mainLabel = false,
}: {
  kind: 'image' | 'video';
  multiple: boolean;
  value: MediaItem[];
  onChange: (items: MediaItem[]) => void;
  /** Staff and admins upload for the product's seller. */
  sellerId: string | null;
  label: string;
  inputTestId?: string;
  /** The gallery: the first image is the product's main image. */
  mainLabel?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(value);
  latest.current = value;
  const types: readonly string[] = kind === 'image' ? PRODUCT_IMAGE_TYPES : PRODUCT_VIDEO_TYPES;
  const maxBytes = kind === 'image' ? PRODUCT_IMAGE_MAX_BYTES : PRODUCT_VIDEO_MAX_BYTES;

  const upload = async (file: File) => {
    if (!types.includes(file.type)) {
      setError(
        `${file.name} is not ${kind === 'image' ? 'a JPEG, PNG or WebP image' : 'an MP4 or WebM video'}.`,
      );
      return;
    }
    if (file.size > maxBytes) {
      setError(`${file.name} is larger than ${formatBytes(maxBytes)}.`);
      return;
    }
    setUploading((list) => [...list, { name: file.name, percent: 0 }]);
    try {
      const url = sellerId
        ? `${MEDIA_UPLOAD_URL}?sellerId=${encodeURIComponent(sellerId)}`
        : MEDIA_UPLOAD_URL;
      const media = await uploadWithProgress<ProductMedia>(
        url,
        file,
        {},
        {
          silent: true,
          onProgress: (loaded, total) =>
            setUploading((list) =>
              list.map((entry) =>
                entry.name === file.name
                  ? { ...entry, percent: Math.round((100 * loaded) / Math.max(total, 1)) }
                  : entry,
              ),
            ),
        },
      );
      const item = { id: media.id, url: media.thumbUrl ?? media.url, fileName: media.fileName };
      onChange(multiple ? [...latest.current, item] : [item]);
    } catch (failure) {
      setError(getErrorMessage(failure));
    } finally {
      setUploading((list) => list.filter((entry) => entry.name !== file.name));
    }
  };

  const move = (index: number, by: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    onChange(next);
  };

  return (
    <Stack gap="2">
      <HStack gap="2" wrap="wrap">
        {value.map((item, index) => (
          <Box
            key={item.id}
            position="relative"
            borderWidth="1px"
            rounded="md"
            p="1"
            data-testid="media-item"
          >
            {kind === 'image' ? (
              <Image
                src={item.url}
                alt={item.fileName ?? `${label} ${index + 1}`}
                boxSize="20"
                objectFit="cover"
                rounded="sm"
              />
            ) : (
              <Stack boxSize="20" align="center" justify="center" bg="bg.muted" rounded="sm" gap="1">
                <Film size={20} />
                <Text fontSize="2xs" lineClamp={2} textAlign="center" px="1">
                  {item.fileName ?? 'Video'}
                </Text>
              </Stack>
            )}
            {mainLabel && index === 0 ? (
              <Text
                fontSize="2xs"
                position="absolute"
                top="1"
                left="1"
                bg="brand.solid"
                color="white"
                px="1"
                rounded="sm"
              >
                Main
              </Text>
            ) : null}
            <HStack gap="0" justify="center">
              {multiple ? (
                <>
                  <IconButton
                    size="2xs"
                    variant="ghost"
                    aria-label="Move left"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowLeft />
                  </IconButton>
                  {mainLabel ? (
                    <IconButton
                      size="2xs"
                      variant="ghost"
                      aria-label="Make main image"
                      disabled={index === 0}
                      onClick={() => move(index, -index)}
                    >
                      <Star />
                    </IconButton>
                  ) : null}
                  <IconButton
                    size="2xs"
                    variant="ghost"
                    aria-label="Move right"
                    disabled={index === value.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowRight />
                  </IconButton>
                </>
              ) : null}
              <IconButton
                size="2xs"
                variant="ghost"
                colorPalette="red"
                aria-label={`Remove ${item.fileName ?? 'file'}`}
                onClick={() => onChange(value.filter((other) => other.id !== item.id))}
              >
                <Trash2 />
              </IconButton>
            </HStack>
          </Box>
        ))}
      </HStack>
      {uploading.map((entry) => (
        <Stack key={entry.name} gap="1">
          <Text fontSize="xs">
            Uploading {entry.name}… {entry.percent}%
          </Text>
          <Progress.Root value={entry.percent} size="xs" aria-label={`Uploading ${entry.name}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      ))}
      <input
        ref={input}
        type="file"
        hidden
        multiple={multiple}
        accept={types.join(',')}
        aria-label={`Upload ${label}`}
        data-testid={inputTestId}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          setError(null);
          for (const file of files) void upload(file);
        }}
      />
      <Box>
        <Button
          size="sm"
          variant="outline"
          onClick={() => input.current?.click()}
          disabled={!multiple && value.length > 0}
        >
          <Upload /> {kind === 'image' ? (multiple ? 'Upload images' : 'Upload an image') : 'Upload a video'}
        </Button>
      </Box>
      {error ? (
        <Text fontSize="sm" color="fg.error" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
