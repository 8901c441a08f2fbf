import {
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Dialog,
  Field,
  HStack,
  Input,
  NativeSelect,
  Portal,
  Progress,
  RadioGroup,
  Stack,
  Table,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { FileUp } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  type LeadColumnMapping,
  type LeadDuplicatePolicy,
  type LeadImport,
  type LeadImportUpload,
  type LeadTarget,
  leadImportUploadSchema,
} from '../../../contracts/contacts';
import { formatNumber, plural } from '../../../contracts/domain/format';
import { type LeadRowOutcome, leadRowOutcomes } from '../../../contracts/marketing';
import { checkSheetFile, SHEET_ACCEPT, uploadPercent } from '../../lib/sheet-file';
import { getErrorMessage } from '../../services/http';
import { uploadWithProgress } from '../../services/upload-with-progress';
import { FormMessage } from '../../ui/form-parts';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { TaskFileMenu } from '../../ui/task-file-menu';
import {
  CONTACTS_API,
  useDiscardLeadImport,
  useLeadErrorSheet,
  useLeadImport,
  useLeadRows,
  useRefreshContacts,
  useStartLeadImport,
} from './api';

const outcomeLabels: Record<LeadRowOutcome, string> = {
  created: 'New',
  updated: 'Updated',
  skipped: 'Skipped',
  invalid: 'With errors',
};
const outcomePalette: Record<LeadRowOutcome, string> = {
  created: 'green',
  updated: 'blue',
  skipped: 'gray',
  invalid: 'red',
};

function UploadStep({ onUploaded }: { onUploaded: (answer: LeadImportUpload) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const send = async (file: File) => {
    const problem = checkSheetFile(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setPercent(0);
    abort.current = new AbortController();
    try {
      const answer = await uploadWithProgress<unknown>(
        `${CONTACTS_API}/leadImports`,
        file,
        {},
        {
          signal: abort.current.signal,
          silent: true,
          onProgress: (loaded, total) => setPercent(uploadPercent(loaded, total)),
        },
      );
      onUploaded(leadImportUploadSchema.parse(answer));
    } catch (failure) {
      setError(getErrorMessage(failure));
    } finally {
      setPercent(null);
    }
  };
  return (
    <Stack gap="3">
      <Text>
        A CSV or XLSX sheet whose first row names the columns, one lead a row, with at least an e-mail column.
        Next you check which column fills which field.
      </Text>
      <input
        ref={input}
        type="file"
        hidden
        accept={SHEET_ACCEPT}
        aria-label="Lead sheet"
        data-testid="lead-sheet-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void send(file);
        }}
      />
      <Button alignSelf="start" onClick={() => input.current?.click()} loading={percent !== null}>
        <FileUp /> Choose a sheet
      </Button>
      {percent !== null ? (
        <Progress.Root value={percent} size="sm" aria-label="Upload progress">
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <FormMessage status="error">{error}</FormMessage>
    </Stack>
  );
}

function MappingStep({
  upload,
  onStarted,
  onDiscard,
}: {
  upload: LeadImportUpload;
  onStarted: (item: LeadImport) => void;
  onDiscard: () => void;
}) {
  const [mapping, setMapping] = useState<LeadColumnMapping[]>(upload.import.mapping);
  const [duplicates, setDuplicates] = useState<LeadDuplicatePolicy>('skip');
  const [tags, setTags] = useState('');
  const [consent, setConsent] = useState(false);
  const start = useStartLeadImport();
  const discard = useDiscardLeadImport();
  const setTarget = (index: number, target: LeadTarget | null) =>
    setMapping((current) =>
      current.map((column) =>
        column.index === index
          ? { ...column, target }
          : column.target === target
            ? { ...column, target: null }
            : column,
      ),
    );
  const hasEmail = mapping.some((column) => column.target === 'email');
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="fg.muted">
        {upload.import.fileName}: choose what each column fills. Columns left on “Not imported” are ignored.
      </Text>
      <Table.Root size="sm" aria-label="Column mapping">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Column</Table.ColumnHeader>
            <Table.ColumnHeader>Fills</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {mapping.map((column) => (
            <Table.Row key={column.index}>
              <Table.Cell>{column.header || `Column ${column.index + 1}`}</Table.Cell>
              <Table.Cell>
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field
                    aria-label={`What ${column.header || `column ${column.index + 1}`} fills`}
                    value={column.target ?? ''}
                    onChange={(event) =>
                      setTarget(column.index, (event.target.value || null) as LeadTarget | null)
                    }
                  >
                    <option value="">Not imported</option>
                    {upload.targets.map((target) => (
                      <option key={target.target} value={target.target} title={target.hint}>
                        {target.label}
                        {target.required ? ' (required)' : ''}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {!hasEmail ? (
        <FormMessage status="error">Map a column to E-mail: every lead needs an address.</FormMessage>
      ) : null}
      <Field.Root>
        <Field.Label>An address that is already a contact</Field.Label>
        <RadioGroup.Root
          value={duplicates}
          onValueChange={(event) => setDuplicates(event.value as LeadDuplicatePolicy)}
          size="sm"
        >
          <Stack gap="1">
            <RadioGroup.Item value="skip">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>Skip the row: the contact stays as it is</RadioGroup.ItemText>
            </RadioGroup.Item>
            <RadioGroup.Item value="update">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>Update the contact with the sheet’s non-empty cells</RadioGroup.ItemText>
            </RadioGroup.Item>
          </Stack>
        </RadioGroup.Root>
        <Field.HelperText>
          Either way an unsubscribed or bounced contact stays unsubscribed: an import never resubscribes
          anyone.
        </Field.HelperText>
      </Field.Root>
      <Field.Root>
        <Field.Label>Tags for every imported contact</Field.Label>
        <Input
          size="sm"
          value={tags}
          onChange={(event) => setTags(event.target.value)}
          placeholder="expo-2026"
        />
      </Field.Root>
      <Checkbox.Root
        checked={consent}
        onCheckedChange={(event) => setConsent(event.checked === true)}
        size="sm"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>These people agreed to receive marketing mail (a consent column wins)</Checkbox.Label>
      </Checkbox.Root>
      <FormMessage status="error">
        {start.isError
          ? getErrorMessage(start.error)
          : discard.isError
            ? getErrorMessage(discard.error)
            : null}
      </FormMessage>
      <HStack justify="end" gap="2">
        <Button
          variant="outline"
          loading={discard.isPending}
          onClick={() => discard.mutate(upload.import.id, { onSuccess: onDiscard })}
        >
          Discard
        </Button>
        <Button
          colorPalette="brand"
          disabled={!hasEmail}
          loading={start.isPending}
          onClick={() =>
            start.mutate(
              { id: upload.import.id, mapping, duplicates, tags: tags.split(','), consent },
              { onSuccess: (answer) => onStarted(answer.import) },
            )
          }
        >
          Import
        </Button>
      </HStack>
    </Stack>
  );
}

function RowsTable({ item }: { item: LeadImport }) {
  const [outcome, setOutcome] = useState<LeadRowOutcome>('invalid');
  const [skip, setSkip] = useState(0);
  const rows = useLeadRows(item.id, outcome, skip, item.status === 'done' || item.status === 'failed');
  const errorSheet = useLeadErrorSheet();
  return (
    <Stack gap="2">
      <Tabs.Root
        size="sm"
        value={outcome}
        onValueChange={(event) => {
          setOutcome(event.value as LeadRowOutcome);
          setSkip(0);
        }}
      >
        <Tabs.List>
          {leadRowOutcomes.map((value) => (
            <Tabs.Trigger key={value} value={value}>
              {outcomeLabels[value]} ({formatNumber(item.counts[value] ?? 0)})
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
      {rows.isError ? (
        <ErrorState message={getErrorMessage(rows.error)} onRetry={() => rows.refetch()} />
      ) : rows.isPending ? (
        <LoadingState rows={3} label="Loading the rows" />
      ) : rows.data.result.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          No rows.
        </Text>
      ) : (
        <>
          <Table.Root size="sm" aria-label="Imported rows">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Row</Table.ColumnHeader>
                <Table.ColumnHeader>E-mail</Table.ColumnHeader>
                <Table.ColumnHeader>What happened</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.data.result.map((row) => (
                <Table.Row key={row.line}>
                  <Table.Cell>{row.line}</Table.Cell>
                  <Table.Cell>{row.email || '—'}</Table.Cell>
                  <Table.Cell>
                    {row.errors.length
                      ? row.errors
                          .map((error) => (error.cell ? `${error.cell}: ${error.message}` : error.message))
                          .join(' · ')
                      : outcomeLabels[row.outcome]}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <Pager
            compact
            label="Row pages"
            skip={skip}
            limit={10}
            count={rows.data.count}
            onSkipChange={setSkip}
          />
        </>
      )}
      {item.counts.invalid > 0 ? (
        <HStack>
          <TaskFileMenu
            label="Download the error sheet"
            preparingLabel="Preparing the error sheet…"
            start={(format) => errorSheet.mutateAsync({ id: item.id, format })}
          />
          <Text fontSize="sm" color="fg.muted">
            The rows with errors as they were, plus what to fix; correct them and import the sheet again.
          </Text>
        </HStack>
      ) : null}
    </Stack>
  );
}

function ProgressStep({ id }: { id: string }) {
  const item = useLeadImport(id);
  const refresh = useRefreshContacts();
  const status = item.data?.status;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list refreshes once the import ends
  useEffect(() => {
    if (status === 'done') void refresh();
  }, [status]);
  if (item.isPending) return <LoadingState rows={3} label="Loading the import" />;
  if (item.isError)
    return <ErrorState message={getErrorMessage(item.error)} onRetry={() => item.refetch()} />;
  const data = item.data;
  const running = data.status === 'running' || data.status === 'queued';
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="fg.muted">
        {data.fileName} · by {data.createdByName || 'someone'} ·{' '}
        {data.duplicates === 'update' ? 'existing contacts updated' : 'existing contacts skipped'}
      </Text>
      {running ? (
        <Stack gap="1">
          <Progress.Root value={data.progress} size="sm" aria-label="Import progress">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="sm" data-testid="lead-progress">
            {plural(data.rowsRead, 'row')} read · {data.progress}%
            {data.rowsPerSecond ? ` · ${formatNumber(data.rowsPerSecond, 0)} rows/s` : ''}
          </Text>
        </Stack>
      ) : null}
      {data.status === 'failed' ? (
        <FormMessage status="error">{data.error ?? 'The import failed.'}</FormMessage>
      ) : null}
      <HStack gap="2" wrap="wrap" aria-label="Counts by outcome">
        {leadRowOutcomes.map((value) => (
          <Badge key={value} colorPalette={outcomePalette[value]} variant="subtle">
            {outcomeLabels[value]}: {formatNumber(data.counts[value] ?? 0)}
          </Badge>
        ))}
      </HStack>
      {running ? null : <RowsTable item={data} />}
    </Stack>
  );
}

/**
 * "Import leads": upload (with progress) → mapping, duplicates policy, tags and consent → live progress
 * (the task toast comes from the app's task handling) → the report with its bad rows and error sheet.
 * The import being followed is in the URL (`?leadImport=id`), so a reload or the notification's link
 * comes back to it.
 */
export function LeadImportDialog({
  open,
  importId,
  onImportChange,
  onClose,
}: {
  open: boolean;
  importId: string | null;
  onImportChange: (id: string | null) => void;
  onClose: () => void;
}) {
  const [upload, setUpload] = useState<LeadImportUpload | null>(null);
  useEffect(() => {
    if (!open) setUpload(null);
  }, [open]);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => !event.open && onClose()}
      size="lg"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Import leads</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {importId ? (
                <ProgressStep id={importId} />
              ) : upload ? (
                <MappingStep
                  upload={upload}
                  onStarted={(item) => {
                    setUpload(null);
                    onImportChange(item.id);
                  }}
                  onDiscard={() => setUpload(null)}
                />
              ) : (
                <UploadStep onUploaded={setUpload} />
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
