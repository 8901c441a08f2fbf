// The last question before a campaign goes out: how many contacts will be mailed (counted afresh), and
// now or at the chosen time. The send answers at once with a task; its toast ("Bulk mail Completed")
// comes from the task handler when the job finishes.
import { Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { Audience, Campaign } from '../../../contracts/campaigns';
import { dateTimeInputValue, formatDateTime, formatNumber, plural } from '../../../contracts/domain/format';
import type { TaskStatusInfo } from '../../../contracts/notifications';
import { getErrorMessage } from '../../services/api-error';
import { notifyTaskStarted } from '../../services/task-started';
import { FormMessage } from '../../ui/form-parts';
import { useAudienceCount, useSendCampaign } from './api';
import { scheduleOf } from './campaign-form';

/**
 * The toast of an accepted send: scheduled for a time, or sending. A send's end has a task toast of its
 * own ("Bulk mail Completed"), which a small audience can bring first: "is sending" then stays away.
 */
export function announceSent(sent: Campaign, task: TaskStatusInfo | null) {
  notifyTaskStarted(task, {
    type: 'success',
    title:
      sent.status === 'scheduled' && sent.scheduledAt
        ? `${sent.name} is scheduled for ${formatDateTime(sent.scheduledAt)}`
        : `${sent.name} is sending`,
  });
}

export function SendDialog({
  campaign,
  audience,
  mode,
  onClose,
  onSent,
}: {
  campaign: { id: string; version: number; name: string };
  audience: Audience;
  mode: 'now' | 'schedule';
  onClose(): void;
  onSent(campaign: Campaign, task: TaskStatusInfo | null): void;
}) {
  const count = useAudienceCount(audience);
  const send = useSendCampaign();
  const [when, setWhen] = useState(() => dateTimeInputValue(new Date(Date.now() + 60 * 60_000)));
  const [problem, setProblem] = useState<string | null>(null);
  // Counted again when the dialog opens: contacts may have unsubscribed since the composer counted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on open
  useEffect(() => {
    void count.refetch();
  }, []);

  const mailable = count.data?.mailable ?? null;
  const counted = mailable !== null && !count.isFetching;
  const who = mailable === null ? 'the audience' : plural(mailable, 'contact');

  const confirm = () => {
    let scheduledAt: string | null = null;
    if (mode === 'schedule') {
      const schedule = scheduleOf(when);
      if ('problem' in schedule) {
        setProblem(schedule.problem);
        return;
      }
      scheduledAt = schedule.at;
    }
    setProblem(null);
    send.mutate(
      { id: campaign.id, version: campaign.version, scheduledAt },
      { onSuccess: (answer) => onSent(answer.campaign, answer.taskStatus) },
    );
  };

  return (
    <Dialog.Root
      role="alertdialog"
      open
      onOpenChange={(event) => {
        if (!event.open && !send.isPending) onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                {mode === 'now' ? `Send “${campaign.name}” now?` : `Schedule “${campaign.name}”`}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text data-testid="send-count">
                  {count.isError
                    ? 'The audience could not be counted.'
                    : !counted
                      ? 'Counting the audience…'
                      : mode === 'now'
                        ? `${who} will be mailed now. This cannot be undone, but you can pause the send.`
                        : `${who} will be mailed at the time you choose. Until then you can still change or delete the campaign.`}
                </Text>
                {counted && count.data && count.data.matching > count.data.mailable ? (
                  <Text fontSize="sm" color="fg.muted">
                    {formatNumber(count.data.matching - count.data.mailable)} matching contacts unsubscribed
                    or bounced and are left out.
                  </Text>
                ) : null}
                {mode === 'schedule' ? (
                  <Field.Root invalid={Boolean(problem)} required>
                    <Field.Label>Send at</Field.Label>
                    <Input
                      type="datetime-local"
                      value={when}
                      min={dateTimeInputValue(new Date())}
                      onChange={(event) => setWhen(event.target.value)}
                    />
                    <Field.HelperText>
                      In your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}).
                    </Field.HelperText>
                    <Field.ErrorText>{problem}</Field.ErrorText>
                  </Field.Root>
                ) : null}
                {mailable === 0 && counted ? (
                  <FormMessage status="error">Nobody would receive it: widen the audience first.</FormMessage>
                ) : null}
                <FormMessage status="error">{send.error ? getErrorMessage(send.error) : null}</FormMessage>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={send.isPending}>
                Cancel
              </Button>
              <Button
                colorPalette="brand"
                loading={send.isPending}
                disabled={!counted || !mailable}
                onClick={confirm}
                data-testid="confirm-send"
              >
                {mode === 'now' ? (mailable ? `Send to ${who}` : 'Send') : `Schedule for ${who}`}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
