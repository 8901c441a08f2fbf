// A settings section's frame: its heading, its form (useSectionForm), Save and Discard, and its History
// panel (who changed which field, before → after, from the one audit timeline).
import { Button, CloseButton, Drawer, Heading, HStack, Portal, Stack, Text } from '@chakra-ui/react';
import { History } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { StoredSection } from '../../../contracts/settings';
import { getErrorMessage } from '../../services/http';
import { HistoryTimeline, type HistoryWords } from '../../ui/history-timeline';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { useSectionHistory } from './api';
import { SectionActions, type SectionForm, SectionFormProvider, useSectionForm } from './section-form';
import { fieldLabel, formatSettingValue, sectionTitles } from './section-words';

export function SectionFrame({
  section,
  description,
  children,
}: {
  section: StoredSection;
  description: string;
  children: (form: SectionForm) => ReactNode;
}) {
  const form = useSectionForm(section);
  const [historyOpen, setHistoryOpen] = useState(false);
  const title = sectionTitles[section];
  return (
    <Stack gap="5" maxW="3xl">
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Stack gap="1">
          <Heading as="h2" size="lg">
            {title}
          </Heading>
          <Text color="fg.muted">{description}</Text>
        </Stack>
        <Button variant="outline" size="sm" onClick={() => setHistoryOpen(true)}>
          <History /> History
        </Button>
      </HStack>
      {form.query.isPending ? (
        <LoadingState rows={5} label={`Loading ${title}`} />
      ) : form.query.isError ? (
        <ErrorState message={getErrorMessage(form.query.error)} onRetry={() => form.query.refetch()} />
      ) : (
        <SectionFormProvider form={form}>
          <Stack
            as="form"
            gap="5"
            onSubmit={(event) => {
              event.preventDefault();
              void form.save();
            }}
          >
            {children(form)}
            <SectionActions />
          </Stack>
        </SectionFormProvider>
      )}
      {historyOpen ? <SectionHistory section={section} onClose={() => setHistoryOpen(false)} /> : null}
    </Stack>
  );
}

function SectionHistory({ section, onClose }: { section: StoredSection; onClose: () => void }) {
  const history = useSectionHistory(section);
  const words: HistoryWords = {
    fieldLabel: (field) => fieldLabel(section, field),
    actionText: () => `changed ${sectionTitles[section]}`,
    formatValue: (value, field) => formatSettingValue(section, field, value),
  };
  return (
    <Drawer.Root open onOpenChange={(event) => !event.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{sectionTitles[section]} history</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <HistoryTimeline
                history={history}
                words={words}
                emptyDescription={`Changes to ${sectionTitles[section]} appear here: who, when, and each field before → after.`}
              />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={`Close ${sectionTitles[section]} history`} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
