import { Button, Field, HStack, Stack, Textarea } from '@chakra-ui/react';
import { Check, FileInput, Hand, RefreshCw, Upload, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { Import, ImportRequest } from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { FormDialog } from '../../../ui/form-dialog';
import { FormMessage } from '../../../ui/form-parts';
import { notify } from '../../../ui/notify';
import type { UploadPreset } from '../import-list/UploadDrawer';
import { useImportFromRequest, useTakeRequest, useUpdateRequest } from '../shared/api';
import { NOTE_LIMIT } from './request-form';

const isClosed = (request: ImportRequest) => request.status === 'done' || request.status === 'rejected';

/** Staff's answer when closing a request: done (what was done) or rejected (why). */
function RespondDialog({
  request,
  outcome,
  onClose,
}: {
  request: ImportRequest;
  outcome: 'done' | 'rejected';
  onClose: () => void;
}) {
  const [response, setResponse] = useState('');
  const update = useUpdateRequest();
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The seller is told why a request is refused.
    const needed = outcome === 'rejected' && !response.trim();
    setMissing(needed);
    if (needed) return;
    update.mutate(
      { id: request.id, body: { status: outcome, response: response.trim() || undefined } },
      {
        onSuccess: () => {
          notify({ type: 'success', title: outcome === 'done' ? 'Request marked done' : 'Request rejected' });
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      open
      onClose={() => !update.isPending && onClose()}
      onSubmit={submit}
      title={outcome === 'done' ? 'Mark the request done' : 'Reject the request'}
      submitLabel={outcome === 'done' ? 'Mark as done' : 'Reject request'}
      submitPalette={outcome === 'done' ? 'green' : 'red'}
      pending={update.isPending}
    >
      <Field.Root required={outcome === 'rejected'} invalid={missing}>
        <Field.Label>
          Response to the seller {outcome === 'rejected' ? <Field.RequiredIndicator /> : null}
        </Field.Label>
        <Textarea
          rows={4}
          maxLength={NOTE_LIMIT}
          value={response}
          placeholder={outcome === 'done' ? 'What was imported' : 'Why the request cannot be done'}
          onChange={(event) => setResponse(event.target.value)}
        />
        <Field.ErrorText>Tell the seller why the request is rejected.</Field.ErrorText>
      </Field.Root>
      <FormMessage status="error">{update.isError ? getErrorMessage(update.error) : null}</FormMessage>
    </FormDialog>
  );
}

/** Take, import (the file, or the feed fetched), upload a prepared sheet, close with an answer. */
export function StaffActions({
  request,
  userId,
  onImported,
  onUploadForRequest,
}: {
  request: ImportRequest;
  userId: string | null;
  onImported: (item: Import) => void;
  onUploadForRequest: (preset: UploadPreset) => void;
}) {
  const take = useTakeRequest();
  const importFrom = useImportFromRequest();
  const [responding, setResponding] = useState<'done' | 'rejected' | null>(null);
  if (isClosed(request)) return null;
  return (
    <Stack gap="2">
      <HStack gap="2" wrap="wrap">
        {request.status === 'open' || request.assignee?.id !== userId ? (
          <Button
            size="sm"
            variant="outline"
            loading={take.isPending}
            onClick={() => take.mutate(request.id)}
          >
            <Hand /> Take
          </Button>
        ) : null}
        <Button
          size="sm"
          colorPalette="brand"
          loading={importFrom.isPending}
          onClick={() => importFrom.mutate(request.id, { onSuccess: (answer) => onImported(answer.import) })}
        >
          {request.kind === 'file' ? <FileInput /> : <RefreshCw />}
          {request.kind === 'file' ? 'Import this file' : 'Fetch feed and import'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            onUploadForRequest({
              sellerId: request.sellerId,
              sellerName: request.sellerName,
              requestId: request.id,
            })
          }
        >
          <Upload /> Upload a prepared sheet
        </Button>
      </HStack>
      <HStack gap="2" wrap="wrap">
        <Button size="sm" variant="outline" colorPalette="green" onClick={() => setResponding('done')}>
          <Check /> Mark done
        </Button>
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setResponding('rejected')}>
          <X /> Reject
        </Button>
      </HStack>
      {responding ? (
        <RespondDialog request={request} outcome={responding} onClose={() => setResponding(null)} />
      ) : null}
    </Stack>
  );
}
