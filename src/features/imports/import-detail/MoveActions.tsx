import { Button, HStack } from '@chakra-ui/react';
import { ArrowRightLeft, Combine, Tags } from 'lucide-react';
import { useState } from 'react';
import { type Batch, type MoveKind, moveKindLabels } from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useMoveBatch } from '../shared/api';
import { moveHasRows, moveQuestion } from '../shared/format';

const icons = { full: ArrowRightLeft, pricing: Tags, duplicates: Combine } as const;
const kinds: readonly MoveKind[] = ['full', 'pricing', 'duplicates'];

/**
 * The three moves, each asking first with the counts it will act on. A move commits exactly the
 * preview: offered only once the batch is validated and while no job works on it.
 */
export function MoveActions({ batch, size = 'sm' }: { batch: Batch; size?: 'sm' | 'md' }) {
  const move = useMoveBatch();
  const [asking, setAsking] = useState<MoveKind | null>(null);
  const movable = batch.status === 'ready' || batch.status === 'moved';
  const question = asking ? moveQuestion(asking, batch.counts) : null;

  return (
    <HStack gap="2" wrap="wrap" data-tour="import-moves">
      {kinds.map((kind) => {
        const Icon = icons[kind];
        const hasRows = moveHasRows(kind, batch.counts, batch.leftToMove);
        return (
          <Button
            key={kind}
            size={size}
            variant={kind === 'full' ? 'solid' : 'outline'}
            colorPalette="brand"
            disabled={!movable || !hasRows}
            title={
              !movable
                ? 'Available once validation has finished'
                : hasRows
                  ? undefined
                  : 'No row for this move'
            }
            onClick={() => {
              move.reset();
              setAsking(kind);
            }}
          >
            <Icon /> {moveKindLabels[kind]}
          </Button>
        );
      })}
      {question && asking ? (
        <ConfirmDialog
          open
          title={question.title}
          description={question.description}
          confirmLabel={question.confirmLabel}
          pending={move.isPending}
          error={move.isError ? getErrorMessage(move.error) : null}
          onConfirm={() =>
            move.mutate({ kind: asking, batch: batch.id }, { onSuccess: () => setAsking(null) })
          }
          onClose={() => setAsking(null)}
        />
      ) : null}
    </HStack>
  );
}
