// The Templates tab: every mail template by name with its languages, how many campaigns use it and when
// it last changed; search, refresh, new, edit and delete (with a confirmation that says what happens).
import { Badge, Button, Flex, HStack, IconButton, Table, Text, Wrap } from '@chakra-ui/react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { TemplateSummary } from '../../../contracts/mail-templates';
import { templateLanguageLabels } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/api-error';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { RefreshButton } from '../../ui/list-controls';
import { notify } from '../../ui/notify';
import { EmptyListState, ErrorState, LoadingState } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { SearchBox } from '../../ui/search-box';
import { useDeleteTemplate, useTemplateList } from './api';
import { When } from './CampaignParts';

export const TEMPLATES_PAGE_SIZE = 20;

export interface TemplatesTabProps {
  query: string;
  page: number;
  onSearch(query: string): void;
  onPage(page: number): void;
  onOpen(id: string | 'new'): void;
  canEdit: boolean;
  canDelete: boolean;
}

export function TemplatesTab({
  query,
  page,
  onSearch,
  onPage,
  onOpen,
  canEdit,
  canDelete,
}: TemplatesTabProps) {
  const skip = (page - 1) * TEMPLATES_PAGE_SIZE;
  const list = useTemplateList({ skip, limit: TEMPLATES_PAGE_SIZE, query });
  const remove = useDeleteTemplate();
  const [deleting, setDeleting] = useState<TemplateSummary | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notify({ type: 'success', title: `Deleted ${deleting.name}` });
        setDeleting(null);
      },
    });
  };

  return (
    <>
      <Flex gap="2" mb="3" wrap="wrap" align="center">
        <SearchBox value={query} onSearch={onSearch} label="Search templates" placeholder="Search by name" />
        <HStack gap="2" ms="auto">
          <RefreshButton
            onRefresh={() => void list.refetch()}
            refreshing={list.isFetching && !list.isPending}
            label="Refresh templates"
          />
          {canEdit ? (
            <Button colorPalette="brand" onClick={() => onOpen('new')} data-tour="new-template">
              <Plus /> New template
            </Button>
          ) : null}
        </HStack>
      </Flex>
      {list.isPending ? (
        <LoadingState rows={4} label="Loading templates" />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.result.length === 0 ? (
        <EmptyListState
          title={query ? 'No template matches' : 'No templates yet'}
          description={
            query
              ? 'Try another name.'
              : 'A template is the mail a campaign sends: a subject and a body, in one or more languages.'
          }
          pastTheEnd={skip > 0 && list.data.count > 0}
          onFirstPage={() => onPage(1)}
        />
      ) : (
        <PagedTable
          label="Templates"
          pagerLabel="Templates pages"
          skip={skip}
          limit={TEMPLATES_PAGE_SIZE}
          count={list.data.count}
          onSkipChange={(next) => onPage(next / TEMPLATES_PAGE_SIZE + 1)}
          stale={list.isPlaceholderData}
          busy={list.isFetching}
          columns={
            <>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Languages</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Campaigns</Table.ColumnHeader>
              <Table.ColumnHeader>Updated</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">
                <Text srOnly>Actions</Text>
              </Table.ColumnHeader>
            </>
          }
        >
          {list.data.result.map((template) => (
            <Table.Row key={template.id} data-testid="template-row">
              <Table.Cell maxW="md">
                <Button
                  variant="plain"
                  p="0"
                  h="auto"
                  fontWeight="semibold"
                  onClick={() => onOpen(template.id)}
                  aria-label={`Open ${template.name}`}
                >
                  <Text truncate>{template.name}</Text>
                </Button>
                {template.description ? (
                  <Text fontSize="xs" color="fg.muted" lineClamp={1}>
                    {template.description}
                  </Text>
                ) : null}
              </Table.Cell>
              <Table.Cell>
                <Wrap gap="1">
                  {template.languages.map((language) => (
                    <Badge
                      key={language}
                      variant={language === template.defaultLanguage ? 'solid' : 'subtle'}
                      colorPalette="gray"
                      title={`${templateLanguageLabels[language]}${language === template.defaultLanguage ? ' (default)' : ''}`}
                    >
                      {language}
                    </Badge>
                  ))}
                </Wrap>
              </Table.Cell>
              <Table.Cell textAlign="end">{formatNumber(template.campaigns)}</Table.Cell>
              <Table.Cell>
                <When at={template.updatedAt} />
              </Table.Cell>
              <Table.Cell>
                <HStack gap="1" justify="flex-end">
                  {canEdit ? (
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Edit ${template.name}`}
                      title="Edit"
                      onClick={() => onOpen(template.id)}
                    >
                      <Pencil />
                    </IconButton>
                  ) : null}
                  {canDelete ? (
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Delete ${template.name}`}
                      title="Delete"
                      onClick={() => setDeleting(template)}
                    >
                      <Trash2 />
                    </IconButton>
                  ) : null}
                </HStack>
              </Table.Cell>
            </Table.Row>
          ))}
        </PagedTable>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'the template'}?`}
        description={
          deleting?.campaigns
            ? `${plural(deleting.campaigns, 'campaign')} used it. Sent campaigns keep their history; drafts that use it must choose another template. A template a scheduled or sending campaign uses cannot be deleted.`
            : 'It is removed with every language version. This cannot be undone.'
        }
        confirmLabel="Delete"
        danger
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onConfirm={confirmDelete}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
      />
    </>
  );
}
