// Publishing: first what it would change (the diff against the published tree), then — for each removed
// tag products still carry — where those products go (another tag, or nowhere), a note, and Publish.
// The publish names the draft revision this diff was read at, so a draft changed meanwhile is refused
// ("read it again") rather than published unseen.
import { Alert, Box, Button, Field, Heading, RadioGroup, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { plural } from '../../../contracts/domain/format';
import type { TagNodeWithPath, TagRemapNeed } from '../../../contracts/tags';
import { ApiError, getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { TagPicker, tagPathText } from '../../ui/tag-picker';
import { usePublish, usePublishPreview } from './api';
import { DiffView } from './DiffView';
import { diffSummary, diffTotal } from './format';

type Choice = { to: null } | { to: TagNodeWithPath };

function RemapChoice({
  need,
  choice,
  onChoose,
}: {
  need: TagRemapNeed;
  choice: Choice | undefined;
  onChoose: (choice: Choice | undefined) => void;
}) {
  const [picking, setPicking] = useState(false);
  const value = choice === undefined ? '' : choice.to === null ? 'untag' : 'retag';
  return (
    <Box borderWidth="1px" rounded="md" p="3" data-testid="remap-need">
      <Text fontWeight="medium">
        {need.node.path} — {plural(need.products, 'product')}
      </Text>
      <RadioGroup.Root
        mt="2"
        value={value}
        onValueChange={(details) => {
          if (details.value === 'untag') {
            setPicking(false);
            onChoose({ to: null });
          } else {
            setPicking(true);
            onChoose(undefined);
          }
        }}
      >
        <Stack gap="2">
          <RadioGroup.Item value="untag">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Remove the tag from them</RadioGroup.ItemText>
          </RadioGroup.Item>
          <RadioGroup.Item value="retag">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>
              {choice?.to ? `Tag them “${tagPathText(choice.to)}”` : 'Tag them with another tag'}
            </RadioGroup.ItemText>
          </RadioGroup.Item>
        </Stack>
      </RadioGroup.Root>
      {picking && !choice ? (
        <Box mt="2">
          <TagPicker
            label={`Tag for the products of ${need.node.name}`}
            onPick={(tag) => onChoose({ to: tag })}
          />
        </Box>
      ) : null}
    </Box>
  );
}

export function PublishDialog({ onClose }: { onClose: () => void }) {
  const preview = usePublishPreview(true);
  const publish = usePublish();
  const [note, setNote] = useState('');
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const data = preview.data;
  const missing = data ? data.remapNeeded.filter((need) => !choices[need.node.id]).length : 0;
  const nothing = data ? diffTotal(data.diff.counts) === 0 && data.latest !== null : false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!data || missing > 0 || data.problems.length > 0) return;
    try {
      const version = await publish.mutateAsync({
        draftRevision: data.draftRevision,
        note: note.trim(),
        remap: data.remapNeeded.map((need) => {
          const choice = choices[need.node.id] as Choice;
          return { nodeId: need.node.id, to: choice.to === null ? null : choice.to.id };
        }),
      });
      notify({
        type: 'success',
        title: `Version ${version.number} is published`,
        description: diffSummary({ ...version.summary, recoded: 0 }),
      });
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <FormDialog
      open
      onClose={() => !publish.isPending && onClose()}
      onSubmit={submit}
      title="Publish the draft"
      submitLabel={
        data?.latest === null ? 'Publish the first version' : `Publish version ${(data?.latest ?? 0) + 1}`
      }
      pending={publish.isPending || preview.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      {preview.isPending ? <LoadingState rows={4} label="Reading what publishing would change" /> : null}
      {preview.isError ? (
        <ErrorState message={getErrorMessage(preview.error)} onRetry={() => preview.refetch()} />
      ) : null}
      {data ? (
        <>
          <Text>
            {data.latest === null
              ? `The storefront has no tag tree yet: publishing makes the draft's ${plural(data.nodeCount, 'tag')} version 1.`
              : `Compared with version ${data.latest}, the one the storefront shows now${data.rolledBackFrom ? ` (the draft is version ${data.rolledBackFrom} brought back)` : ''}:`}
          </Text>
          <FormMessage status="error">{publish.error ? getErrorMessage(publish.error) : null}</FormMessage>
          {publish.error instanceof ApiError && publish.error.code === 'DRAFT_CHANGED' ? (
            <Button size="sm" variant="outline" alignSelf="flex-start" onClick={() => preview.refetch()}>
              Read the changes again
            </Button>
          ) : null}
          {data.problems.length ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>The draft cannot be published as it is</Alert.Title>
                <Alert.Description>{data.problems.join(' ')}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : null}
          {nothing ? (
            <Text color="fg.muted">The draft is the same as the published tree.</Text>
          ) : (
            <DiffView diff={data.diff} />
          )}
          {data.remapNeeded.length ? (
            <Stack gap="3">
              <Heading size="sm">Products on removed tags</Heading>
              <Text fontSize="sm" color="fg.muted">
                The storefront must not keep tags it no longer has: choose where each removed tag’s products
                go.
              </Text>
              {data.remapNeeded.map((need) => (
                <RemapChoice
                  key={need.node.id}
                  need={need}
                  choice={choices[need.node.id]}
                  onChoose={(choice) =>
                    setChoices((current) => {
                      const next = { ...current };
                      if (choice) next[need.node.id] = choice;
                      else delete next[need.node.id];
                      return next;
                    })
                  }
                />
              ))}
              {missing ? (
                <Text fontSize="sm" color="fg.error">
                  Choose for {plural(missing, 'tag')} before publishing.
                </Text>
              ) : null}
            </Stack>
          ) : null}
          <Field.Root>
            <Field.Label>Note</Field.Label>
            <Textarea
              value={note}
              maxLength={500}
              rows={2}
              placeholder="What this version is for (shown in the publish history)"
              onChange={(event) => setNote(event.target.value)}
            />
          </Field.Root>
        </>
      ) : null}
    </FormDialog>
  );
}
