// The company logo: the current one, and a new one uploaded with its real progress. The upload answers
// the stored path, which goes into the form's draft; the section's Save stores it (audited, versioned).
import { Box, Image, Text } from '@chakra-ui/react';
import { uploadWithProgress } from '../../../services/upload-with-progress';
import { ImageUploadPanel } from '../../../ui/image-upload-panel';

export const COMPANY_LOGO_URL = '/api/v1/settings/company/logo';

export function CompanyLogoUpload({
  id,
  value,
  disabled,
  onChange,
}: {
  id: string;
  value: string | null;
  disabled: boolean;
  onChange: (path: string) => void;
}) {
  const upload = async (file: File, onProgress: (fraction: number) => void) => {
    const { path } = await uploadWithProgress<{ path: string }>(
      COMPANY_LOGO_URL,
      file,
      {},
      { silent: true, onProgress: (loaded, total) => onProgress(loaded / Math.max(total, 1)) },
    );
    onChange(path);
  };
  return (
    <ImageUploadPanel
      id={id}
      image={
        // A logo keeps its own proportions (it is printed on invoices), so no round crop here.
        <Box borderWidth="1px" borderRadius="md" p="2" minW="24" minH="16" display="grid" placeItems="center">
          {value ? (
            <Image src={value} alt="Company logo" maxH="16" maxW="40" objectFit="contain" />
          ) : (
            <Text fontSize="sm" color="fg.muted">
              No logo
            </Text>
          )}
        </Box>
      }
      hint={disabled ? null : 'PNG, JPEG or WebP, up to 2 MB. Printed on invoices. Save to keep it.'}
      canUpload={!disabled}
      buttonText="Upload logo"
      inputLabel="Company logo file"
      inputTestId="company-logo-input"
      progressLabel="Company logo upload progress"
      upload={upload}
    />
  );
}
