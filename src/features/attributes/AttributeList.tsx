import {
  Badge,
  Box,
  Button,
  Flex,
  HStack,
  Input,
  InputGroup,
  NativeSelect,
  Table,
  Text,
} from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { ATTRIBUTE_PAGE_SIZE, type AttributeSummary } from '../../../contracts/attribute-admin';
import {
  type AttributeDataType,
  attributeDataTypeLabels,
  attributeDataTypes,
} from '../../../contracts/catalog';
import { formatNumber } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { EmptyListState, ErrorState, LoadingState } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { AttributeDialog, DeleteAttributeDialog } from './AttributeDialogs';
import { useAttribute, useAttributes } from './api';

const columns = (
  <>
    <Table.ColumnHeader>Label</Table.ColumnHeader>
    <Table.ColumnHeader>Code</Table.ColumnHeader>
    <Table.ColumnHeader>Data type</Table.ColumnHeader>
    <Table.ColumnHeader>Values</Table.ColumnHeader>
    <Table.ColumnHeader>Required</Table.ColumnHeader>
    <Table.ColumnHeader>Unit</Table.ColumnHeader>
    <Table.ColumnHeader>Group</Table.ColumnHeader>
    <Table.ColumnHeader textAlign="end">Options</Table.ColumnHeader>
    <Table.ColumnHeader textAlign="end">Categories</Table.ColumnHeader>
    <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
  </>
);

/** The attributes, paged on the server, searchable by code or label and filtered by data type. */
export function AttributeList({ can }: { can: { edit: boolean; delete: boolean } }) {
  const [search, setSearchText] = useState('');
  const [dataType, setDataTypeValue] = useState<AttributeDataType | ''>('');
  const [skip, setSkip] = useState(0);
  const query = useDebouncedValue(search.trim());
  const list = useAttributes({ query, dataType, skip, limit: ATTRIBUTE_PAGE_SIZE });
  const [opened, setOpened] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AttributeSummary | null>(null);
  // The same query the dialog reads: the row's button spins until the attribute is there.
  const openedDetail = useAttribute(opened);
  const filtered = !!query || !!dataType;

  return (
    <>
      <Flex gap="3" mb="4" direction={{ base: 'column', md: 'row' }} align={{ md: 'center' }}>
        <InputGroup
          startElement={<Search size={16} />}
          maxW={{ base: 'full', md: '96' }}
          data-tour="attribute-search"
        >
          <Input
            type="search"
            placeholder="Search by code or label"
            aria-label="Search attributes"
            maxLength={100}
            value={search}
            onChange={(event) => {
              setSearchText(event.target.value);
              setSkip(0);
            }}
          />
        </InputGroup>
        <NativeSelect.Root size="md" maxW={{ base: 'full', md: '56' }} data-tour="attribute-type-filter">
          <NativeSelect.Field
            aria-label="Data type"
            value={dataType}
            onChange={(event) => {
              setDataTypeValue(event.target.value as AttributeDataType | '');
              setSkip(0);
            }}
          >
            <option value="">All data types</option>
            {attributeDataTypes.map((type) => (
              <option key={type} value={type}>
                {attributeDataTypeLabels[type]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      <Box data-tour="attribute-table">
        {list.isPending ? (
          <LoadingState rows={6} label="Loading attributes" />
        ) : list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : list.data.result.length === 0 ? (
          <EmptyListState
            title={filtered ? 'No attributes match' : 'No attributes yet'}
            description={
              filtered
                ? 'Try another code or label, or another data type.'
                : 'Attributes describe products: colour, size, power… Create the first one with New attribute.'
            }
            pastTheEnd={skip > 0}
            onFirstPage={() => setSkip(0)}
          />
        ) : (
          <PagedTable
            label="Attributes"
            pagerLabel="Attribute pages"
            columns={columns}
            skip={skip}
            limit={ATTRIBUTE_PAGE_SIZE}
            count={list.data.count}
            onSkipChange={setSkip}
            stale={list.isPlaceholderData}
            busy={list.isFetching}
          >
            {list.data.result.map((attribute) => (
              <Table.Row key={attribute.id} data-attribute-id={attribute.id}>
                <Table.Cell fontWeight="medium">{attribute.label}</Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs">
                  {attribute.code}
                </Table.Cell>
                <Table.Cell>{attributeDataTypeLabels[attribute.dataType]}</Table.Cell>
                <Table.Cell>{attribute.attributeType === 'MULTI' ? 'Several' : 'One'}</Table.Cell>
                <Table.Cell>
                  {attribute.isRequired ? (
                    <Badge colorPalette="orange">Required</Badge>
                  ) : (
                    <Text color="fg.muted">—</Text>
                  )}
                </Table.Cell>
                <Table.Cell>{attribute.unit ?? '—'}</Table.Cell>
                <Table.Cell>{attribute.groupName}</Table.Cell>
                <Table.Cell textAlign="end">
                  {attribute.dataType === 'ENUMERATED' ? attribute.optionCount : '—'}
                </Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(attribute.categoryCount)}</Table.Cell>
                <Table.Cell>
                  <HStack gap="2" justify="flex-end">
                    <Button
                      size="xs"
                      variant="outline"
                      aria-label={`${can.edit ? 'Edit' : 'View'} ${attribute.label}`}
                      loading={opened === attribute.id && openedDetail.isPending}
                      onClick={() => setOpened(attribute.id)}
                    >
                      {can.edit ? 'Edit' : 'View'}
                    </Button>
                    {can.delete ? (
                      <Button
                        size="xs"
                        variant="outline"
                        colorPalette="red"
                        aria-label={`Delete ${attribute.label}`}
                        onClick={() => setDeleting(attribute)}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </PagedTable>
        )}
      </Box>
      {opened !== null ? (
        <AttributeDialog id={opened} canEdit={can.edit} onClose={() => setOpened(null)} />
      ) : null}
      <DeleteAttributeDialog target={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
