import { Box, Button, CloseButton, Drawer, Portal, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { IMPORT_MAX_BYTES, type Import } from '../../../../contracts/imports';
import { formatBytes } from '../../../lib/file-limits';
import { checkSheetFile, uploadPercent } from '../../../lib/sheet-file';
import { getErrorMessage } from '../../../services/http';
import { FormMessage } from '../../../ui/form-parts';
import { uploadCatalogSheet } from '../shared/api';
import { SampleSheetLink } from '../shared/SampleSheetLink';
import { SellerPicker } from '../shared/SellerPicker';
import { SheetFileField, UploadProgress } from '../shared/SheetFileField';

/** Uploading for a request: the seller is the request's, and the import is linked to it. */
export interface UploadPreset {
  sellerId: string;
  sellerName: string;
  requestId: string;
}

/**
 * "Upload sheet": the seller (admins and staff), the file, then a real progress bar while it goes out.
 * On success the drawer closes and the new import opens; the validation task's toast comes from the
 * app's task handling.
 */
export default function UploadDrawer({
  open,
  chooseSeller,
  preset,
  onClose,
  onUploaded,
}: {
  open: boolean;
  /** Admins and staff pick the seller; a seller's sheet is for their own catalogue. */
  chooseSeller: boolean;
  preset?: UploadPreset | null;
  onClose: () => void;
  onUploaded: (item: Import) => void;
}) {
  const [sellerId, setSellerId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ seller?: string; file?: string }>({});
  const [message, setMessage] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const uploading = percent !== null;
  // Closing the page mid-upload stops sending.
  useEffect(() => () => abort.current?.abort(), []);

  const close = () => {
    abort.current?.abort();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const seller = preset?.sellerId ?? (chooseSeller ? sellerId : '');
    const found = {
      seller: chooseSeller && !seller ? 'Choose the seller whose catalogue this is.' : undefined,
      file: file ? (checkSheetFile(file) ?? undefined) : 'Choose the sheet to upload.',
    };
    setErrors(found);
    setMessage(null);
    if (found.seller || found.file || !file) return;
    const controller = new AbortController();
    abort.current = controller;
    setPercent(0);
    try {
      const answer = await uploadCatalogSheet(
        file,
        { sellerId: seller || undefined, requestId: preset?.requestId },
        {
          signal: controller.signal,
          onProgress: (loaded, total) => setPercent(uploadPercent(loaded, total)),
        },
      );
      onUploaded(answer.import);
    } catch (failure) {
      if (!controller.signal.aborted) setMessage(getErrorMessage(failure));
    } finally {
      setPercent(null);
      abort.current = null;
    }
  };

  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && close()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content asChild>
            <form onSubmit={submit} noValidate aria-label="Upload a catalogue sheet">
              <Drawer.Header>
                <Drawer.Title>Upload a catalogue sheet</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>
                <Stack gap="5">
                  <Text fontSize="sm" color="fg.muted">
                    Nothing is written when you upload: every row is checked first, and the report shows what
                    moving it to staging would create or change.
                  </Text>
                  {preset ? (
                    <Text fontSize="sm">
                      For <strong>{preset.sellerName}</strong>, answering their import request.
                    </Text>
                  ) : chooseSeller ? (
                    <SellerPicker value={sellerId} onChange={setSellerId} error={errors.seller} />
                  ) : null}
                  <SheetFileField
                    label="Sheet"
                    inputLabel="Sheet file"
                    testId="sheet-file-input"
                    helper={`CSV or XLSX, up to ${formatBytes(IMPORT_MAX_BYTES)}. The first row names the columns.`}
                    file={file}
                    onFile={(picked) => {
                      setFile(picked);
                      setErrors((current) => ({ ...current, file: checkSheetFile(picked) ?? undefined }));
                    }}
                    error={errors.file}
                    disabled={uploading}
                  />
                  {uploading ? (
                    <UploadProgress text={`Uploading ${file?.name}… ${percent}%`} percent={percent} live />
                  ) : null}
                  <FormMessage status="error">{message}</FormMessage>
                  <Box>
                    <SampleSheetLink />
                  </Box>
                </Stack>
              </Drawer.Body>
              <Drawer.Footer>
                <Button variant="outline" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="brand" loading={uploading} loadingText="Uploading…">
                  Upload and validate
                </Button>
              </Drawer.Footer>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Drawer.CloseTrigger>
            </form>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
