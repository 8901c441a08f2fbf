import { Field, Input, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { FEED_URL_LIMIT, type ImportRequest, type RequestKind } from '../../../../contracts/imports';
import { uploadPercent } from '../../../lib/sheet-file';
import { getErrorMessage } from '../../../services/http';
import { FormDialog } from '../../../ui/form-dialog';
import { FormMessage } from '../../../ui/form-parts';
import { sendRequestFile, useCreateFeedRequest } from '../shared/api';
import { RadioChoices } from '../shared/RadioChoices';
import { SellerPicker } from '../shared/SellerPicker';
import { SheetFileField, UploadProgress } from '../shared/SheetFileField';
import {
  checkRequestForm,
  emptyRequestForm,
  feedRequestBody,
  NOTE_LIMIT,
  type RequestForm,
  type RequestFormErrors,
} from './request-form';

const kindLabels: Record<RequestKind, string> = {
  file: 'A sheet I cannot map',
  feed: 'A product feed to fetch',
};
const requestKinds = Object.keys(kindLabels) as RequestKind[];

/**
 * "Request an import": a seller who cannot map a sheet sends it (or a feed URL to fetch) with a note,
 * and staff import it for them. Staff may ask on a seller's behalf. The URL is checked here first.
 */
export function RequestFormDialog({
  chooseSeller,
  onClose,
  onSent,
}: {
  chooseSeller: boolean;
  onClose: () => void;
  onSent: (request: ImportRequest) => void;
}) {
  const [form, setForm] = useState<RequestForm>(emptyRequestForm);
  const [errors, setErrors] = useState<RequestFormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const feed = useCreateFeedRequest();
  const pending = feed.isPending || percent !== null;
  const change = (patch: Partial<RequestForm>) => setForm((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkRequestForm(form, chooseSeller);
    setErrors(found);
    setMessage(null);
    if (Object.keys(found).length > 0) return;
    try {
      if (form.kind === 'feed') {
        onSent(await feed.mutateAsync(feedRequestBody(form, chooseSeller)));
        return;
      }
      if (!form.file) return;
      setPercent(0);
      onSent(
        await sendRequestFile(
          form.file,
          { note: form.note.trim(), sellerId: chooseSeller ? form.sellerId : undefined },
          { onProgress: (loaded, total) => setPercent(uploadPercent(loaded, total)) },
        ),
      );
    } catch (failure) {
      setMessage(getErrorMessage(failure));
    } finally {
      setPercent(null);
    }
  };

  return (
    <FormDialog
      open
      onClose={() => !pending && onClose()}
      onSubmit={submit}
      title="Request an import"
      submitLabel="Send request"
      pending={pending}
      size="lg"
    >
      <Text fontSize="sm" color="fg.muted">
        Send us a sheet you cannot map, or the address of a product feed: our team imports it for you and
        answers here.
      </Text>
      {chooseSeller ? (
        <SellerPicker
          id="request-seller"
          value={form.sellerId}
          onChange={(sellerId) => change({ sellerId })}
          error={errors.sellerId}
        />
      ) : null}
      <Field.Root>
        <Field.Label>What you send</Field.Label>
        <RadioChoices
          label="What you send"
          values={requestKinds}
          labels={kindLabels}
          value={form.kind}
          onChange={(kind) => change({ kind })}
          inline
        />
      </Field.Root>
      {form.kind === 'file' ? (
        <SheetFileField
          label="File"
          inputLabel="Request file"
          testId="request-file-input"
          helper="CSV or XLSX. Our team maps it for you."
          file={form.file}
          error={errors.file}
          onFile={(file) => change({ file })}
        />
      ) : (
        <Field.Root required invalid={Boolean(errors.feedUrl)}>
          <Field.Label>
            Feed URL <Field.RequiredIndicator />
          </Field.Label>
          <Input
            type="url"
            inputMode="url"
            placeholder="https://example.com/products.csv"
            maxLength={FEED_URL_LIMIT}
            value={form.feedUrl}
            onChange={(event) => change({ feedUrl: event.target.value })}
          />
          <Field.HelperText>We fetch it once (up to 20 MB) when we import it.</Field.HelperText>
          <Field.ErrorText>{errors.feedUrl}</Field.ErrorText>
        </Field.Root>
      )}
      <Field.Root invalid={Boolean(errors.note)}>
        <Field.Label>Note</Field.Label>
        <Textarea
          rows={4}
          maxLength={NOTE_LIMIT}
          placeholder="Which columns hold what, anything we should know"
          value={form.note}
          onChange={(event) => change({ note: event.target.value })}
        />
        <Field.ErrorText>{errors.note}</Field.ErrorText>
      </Field.Root>
      {percent !== null ? <UploadProgress text={`Sending… ${percent}%`} percent={percent} /> : null}
      <FormMessage status="error">{message}</FormMessage>
    </FormDialog>
  );
}
