import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { EyeOff } from 'lucide-react';
import { useState } from 'react';
import { plural } from '../../../../contracts/domain/format';
import type { Import, MarkInactivePreview } from '../../../../contracts/imports';
import { ApiError, getErrorMessage } from '../../../services/http';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { notify } from '../../../ui/notify';
import { fetchMarkInactivePreview, useMarkInactive } from '../shared/api';
import { isValidated, markInactiveQuestion } from '../shared/format';
import { NotValidated } from './NotValidated';

/**
 * Mark inactive: the seller's live products whose SKU is not in this sheet go inactive (a full
 * catalogue sheet says what is still sold). The count is asked for when the button is pressed and
 * confirmed by the user; if the catalogue changed since, the server refuses and the count is asked again.
 */
export function MarkInactiveSection({ item, canMark }: { item: Import; canMark: boolean }) {
  const { batch } = item;
  const [preview, setPreview] = useState<MarkInactivePreview | null>(null);
  const [nothing, setNothing] = useState<MarkInactivePreview | null>(null);
  const [loading, setLoading] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const mark = useMarkInactive();
  if (!isValidated(batch)) return <NotValidated batch={batch} />;

  const load = async () => {
    setLoading(true);
    try {
      const answer = await fetchMarkInactivePreview(batch.id);
      setPreview(answer.willChange > 0 ? answer : null);
      setNothing(answer.willChange > 0 ? null : answer);
      return answer;
    } catch {
      // The http client has shown the failure.
      return null;
    } finally {
      setLoading(false);
    }
  };

  const confirm = () => {
    if (!preview) return;
    mark.mutate(
      { batch: batch.id, expected: preview.willChange },
      {
        onSuccess: (answer) => {
          setPreview(null);
          setConflict(null);
          notify({
            type: 'success',
            title: `${plural(answer.changed, 'product')} marked inactive`,
            description: answer.skipped ? `${plural(answer.skipped, 'product')} skipped.` : undefined,
          });
        },
        onError: async (failure) => {
          // The catalogue changed since the count was shown: show why, and the new count to confirm.
          if (failure instanceof ApiError && failure.status === 409) {
            setConflict(getErrorMessage(failure));
            const fresh = await load();
            if (fresh && fresh.willChange === 0) setConflict(null);
          }
        },
      },
    );
  };

  const question = preview ? markInactiveQuestion(preview, item.sellerName) : null;
  // A half-read sheet would make every product after its checkpoint look missing.
  const finished = batch.status === 'ready' || batch.status === 'moved';
  const disabled = !canMark || !finished;
  return (
    <Stack gap="4" align="start">
      <Text maxW="prose">
        When this sheet is the whole catalogue of {item.sellerName}, the products it does not list are no
        longer sold. Mark inactive takes the live ones off sale; nothing is deleted, and they can be made live
        again.
      </Text>
      <Button
        colorPalette="red"
        variant="outline"
        loading={loading}
        disabled={disabled}
        onClick={() => void load()}
        data-tour="mark-inactive"
      >
        <EyeOff /> Mark inactive
      </Button>
      {nothing ? (
        <Alert.Root status="info" data-testid="nothing-to-mark">
          <Alert.Indicator />
          <Alert.Title>
            No live product of {item.sellerName} is missing from this sheet
            {nothing.missing > 0
              ? ` (${plural(nothing.missing, 'missing product is', 'missing products are')} not live and stay as they are).`
              : '.'}
          </Alert.Title>
        </Alert.Root>
      ) : null}
      {question ? (
        <ConfirmDialog
          open
          danger
          title={question.title}
          description={question.description}
          confirmLabel={question.confirmLabel}
          pending={mark.isPending || loading}
          error={conflict ?? (mark.isError && !conflict ? getErrorMessage(mark.error) : null)}
          onConfirm={confirm}
          onClose={() => {
            setPreview(null);
            setConflict(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
