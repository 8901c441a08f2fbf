import { Alert, Box, Button, type ButtonProps, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { Play, Square } from 'lucide-react';
import type { Batch } from '../../../../contracts/imports';
import { isRunning, useResumeBatch, useStopBatch } from '../shared/api';
import { progressFigures } from '../shared/format';

/** Stop or Resume: sends the batch's action, spinning until the server answers. */
function BatchActionButton({
  action,
  batchId,
  ...button
}: { action: { mutate: (batchId: string) => void; isPending: boolean }; batchId: string } & ButtonProps) {
  return (
    <Button
      size="sm"
      variant="outline"
      loading={action.isPending}
      onClick={() => action.mutate(batchId)}
      {...button}
    />
  );
}

/**
 * A batch a job works on: how far it got (rows read or moved, the share, rows per second) and Stop.
 * A stopped or failed batch: why, and Resume, which carries on from its checkpoint.
 */
export function BatchProgress({ batch, canAct }: { batch: Batch; canAct: boolean }) {
  const stop = useStopBatch();
  const resume = useResumeBatch();
  const running = isRunning(batch.status);
  if (!running && batch.status !== 'stopped' && batch.status !== 'failed') return null;
  const figures = progressFigures(batch);
  const step = batch.step === 'move' ? 'move' : 'validation';

  if (!running) {
    return (
      <Alert.Root status={batch.status === 'failed' ? 'error' : 'warning'} data-testid="batch-halted">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>
            {batch.status === 'failed' ? `The ${step} failed` : `The ${step} was stopped`} · {figures.text}
          </Alert.Title>
          {batch.error ? <Alert.Description>{batch.error}</Alert.Description> : null}
        </Alert.Content>
        {canAct ? (
          <BatchActionButton action={resume} batchId={batch.id} alignSelf="center">
            <Play /> Resume
          </BatchActionButton>
        ) : null}
      </Alert.Root>
    );
  }

  return (
    <Box borderWidth="1px" rounded="md" p="4" data-testid="batch-progress" aria-live="polite">
      <Stack gap="2">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Text fontWeight="medium">
            {batch.status === 'queued'
              ? 'Waiting for its turn…'
              : batch.step === 'move'
                ? 'Moving rows to staging…'
                : 'Checking every row…'}
          </Text>
          {canAct ? (
            <BatchActionButton action={stop} batchId={batch.id} colorPalette="red">
              <Square /> Stop
            </BatchActionButton>
          ) : null}
        </HStack>
        <Progress.Root value={figures.percent} size="sm" colorPalette="brand" striped animated>
          <Progress.Track aria-label={figures.label}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <HStack gap="3" fontSize="sm" color="fg.muted" wrap="wrap">
          <Text data-testid="progress-text">{figures.text}</Text>
          {figures.rate ? <Text data-testid="progress-rate">{figures.rate}</Text> : null}
          {figures.eta ? <Text data-testid="progress-eta">{figures.eta}</Text> : null}
        </HStack>
      </Stack>
    </Box>
  );
}
