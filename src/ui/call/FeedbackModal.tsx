// SPEC §2 "Feedback modal": after a hang-up or a rejected incoming call, rate the call 1 to 5 and say
// something about it. Open exactly while the call statechart says so (isFeedbackOpen); Submit saves it
// (updateHistory, done by the adapter) and frees the line, Skip frees it without.
import {
  Box,
  Button,
  Dialog,
  Field,
  Fieldset,
  HStack,
  Portal,
  Textarea,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Star } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import { MAX_FEEDBACK_LENGTH } from '../../../contracts/calls';
import { type CallMachine, isFeedbackOpen } from '../../machines/call.machine';
import { FormMessage } from '../form-parts';

const RATINGS = [1, 2, 3, 4, 5] as const;

/** Five native radios drawn as stars: arrow keys, labels and checked state come from the browser. */
function StarRating({ value, onChange }: { value: number | null; onChange: (rating: number) => void }) {
  return (
    <Fieldset.Root>
      <Fieldset.Legend>How was the call?</Fieldset.Legend>
      <HStack gap="1" role="radiogroup" aria-label="Rating">
        {RATINGS.map((rating) => {
          const lit = value !== null && rating <= value;
          return (
            <Box
              as="label"
              key={rating}
              cursor="pointer"
              color={lit ? 'yellow.solid' : 'fg.subtle'}
              rounded="sm"
              p="0.5"
              _focusWithin={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}
            >
              <VisuallyHidden asChild>
                <input
                  type="radio"
                  name="call-rating"
                  value={rating}
                  checked={value === rating}
                  onChange={() => onChange(rating)}
                  aria-label={rating === 1 ? '1 star' : `${rating} stars`}
                />
              </VisuallyHidden>
              <Star aria-hidden size={28} fill={lit ? 'currentColor' : 'none'} />
            </Box>
          );
        })}
      </HStack>
    </Fieldset.Root>
  );
}

export function FeedbackModal({ call }: { call: ActorRefFrom<CallMachine> }) {
  const open = useSelector(call, isFeedbackOpen);
  const feedback = useSelector(call, (snapshot) => snapshot.context.feedback);
  const submitting = useSelector(call, (snapshot) => snapshot.value === 'submittingFeedback');
  const peer = useSelector(call, (snapshot) => snapshot.context.phoneNumber);

  return (
    <Dialog.Root
      open={open}
      // Closing it (Escape, the close button) skips the feedback; not while it is being saved.
      onOpenChange={(event) => {
        if (!event.open && !submitting) call.send({ type: 'feedback.skip' });
      }}
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Call feedback</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" gap="4">
              {peer ? <Box color="fg.muted">Call with {peer}</Box> : null}
              <StarRating
                value={feedback.rating}
                onChange={(rating) => call.send({ type: 'feedback.rate', rating })}
              />
              <Field.Root>
                <Field.Label>Notes</Field.Label>
                <Textarea
                  value={feedback.text}
                  maxLength={MAX_FEEDBACK_LENGTH}
                  rows={4}
                  onChange={(event) => call.send({ type: 'feedback.change', text: event.target.value })}
                />
                <Field.HelperText>
                  {feedback.text.length} / {MAX_FEEDBACK_LENGTH}
                </Field.HelperText>
              </Field.Root>
              <FormMessage status="error">{feedback.error}</FormMessage>
            </Dialog.Body>
            <Dialog.Footer>
              <Button
                variant="outline"
                disabled={submitting}
                onClick={() => call.send({ type: 'feedback.skip' })}
              >
                Skip
              </Button>
              <Button
                colorPalette="brand"
                disabled={feedback.rating === null}
                loading={submitting}
                loadingText="Submitting"
                onClick={() => call.send({ type: 'feedback.submit' })}
              >
                Submit
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
