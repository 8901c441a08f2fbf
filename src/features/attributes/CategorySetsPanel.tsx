import {
  Badge,
  Box,
  Button,
  Card,
  Field,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { ArrowDown, ArrowUp, Plus, X } from 'lucide-react';
import { useState } from 'react';
import type { AttributeSummary, CategoryAttributeSet } from '../../../contracts/attribute-admin';
import { attributeDataTypeLabels } from '../../../contracts/catalog';
import { getErrorMessage } from '../../services/http';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { TableScroll } from '../../ui/table-scroll';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { recomputeNote, useAttributes, useCategorySet, useSaveCategorySet, useSetCategories } from './api';

/** Enough for a picker; a longer list is narrowed with the search box above it. */
const CATEGORY_PICKER_LIMIT = 200;
const PICKER_RESULTS = 8;

/**
 * "Category sets": pick a category (and a subcategory), then order its own attributes. A subcategory
 * shows its parent's set greyed: it inherits it, and edits it on the parent.
 */
export function CategorySetsPanel({ canEdit }: { canEdit: boolean }) {
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [topId, setTopId] = useState('');
  const [subId, setSubId] = useState('');
  const tops = useSetCategories({ limit: CATEGORY_PICKER_LIMIT, ...(query ? { query } : {}) });
  const subs = useSetCategories({ parentId: topId, limit: CATEGORY_PICKER_LIMIT }, !!topId);
  const selected = subId || topId || null;

  return (
    <Stack gap="4">
      <Card.Root>
        <Card.Body>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="end" data-tour="category-set-picker">
            <Field.Root>
              <Field.Label>Find a category</Field.Label>
              <Input
                type="search"
                placeholder="Category name"
                maxLength={100}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </Field.Root>
            <Field.Root disabled={!tops.data}>
              <Field.Label>Category</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  aria-label="Category"
                  value={topId}
                  onChange={(event) => {
                    setTopId(event.target.value);
                    setSubId('');
                  }}
                >
                  <option value="">Choose a category</option>
                  {(tops.data?.result ?? []).map((category) => (
                    <option key={category.id} value={category.id}>
                      {category.name} ({category.attributeCount})
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root disabled={!topId || !subs.data?.result.length}>
              <Field.Label>Subcategory</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  aria-label="Subcategory"
                  value={subId}
                  onChange={(event) => setSubId(event.target.value)}
                >
                  <option value="">{topId ? 'The category itself' : '—'}</option>
                  {(subs.data?.result ?? []).map((category) => (
                    <option key={category.id} value={category.id}>
                      {category.name} ({category.attributeCount})
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          </SimpleGrid>
          {tops.isError ? (
            <Box mt="4">
              <ErrorState message={getErrorMessage(tops.error)} onRetry={() => tops.refetch()} />
            </Box>
          ) : null}
        </Card.Body>
      </Card.Root>
      {selected ? (
        <SetEditor key={selected} categoryId={selected} canEdit={canEdit} />
      ) : (
        <EmptyMessage
          title="Choose a category"
          description="Its attribute set is what product forms of that category ask for, in this order."
        />
      )}
    </Stack>
  );
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

const sameIds = (a: readonly AttributeSummary[], b: readonly AttributeSummary[]) =>
  a.length === b.length && a.every((attribute, index) => attribute.id === b[index]?.id);

function SetEditor({ categoryId, canEdit }: { categoryId: string; canEdit: boolean }) {
  const set = useCategorySet(categoryId);
  const save = useSaveCategorySet();
  // Null until the user changes something: until then the server's set is shown as it is.
  const [draft, setDraft] = useState<AttributeSummary[] | null>(null);

  if (set.isPending) return <LoadingState rows={4} label="Loading the attribute set" />;
  if (set.isError) return <ErrorState message={getErrorMessage(set.error)} onRetry={() => set.refetch()} />;

  const { category, inherited } = set.data;
  const own = draft ?? set.data.attributes;
  const dirty = draft !== null && !sameIds(draft, set.data.attributes);
  const taken = new Set([...inherited, ...own].map((attribute) => attribute.id));

  const submit = () =>
    save.mutate(
      { categoryId, attributeIds: own.map((attribute) => attribute.id) },
      {
        onSuccess: (saved) => {
          setDraft(null);
          notify({
            type: 'success',
            title: `Saved the attribute set of ${category.name}`,
            description: recomputeNote(saved),
          });
        },
      },
    );

  return (
    <Card.Root data-tour="category-set">
      <Card.Header>
        <Card.Title>
          {category.parentName ? `${category.parentName} › ${category.name}` : category.name}
        </Card.Title>
        <Card.Description>
          {category.parentName
            ? `Products of ${category.name} are asked for ${category.parentName}'s attributes, then these.`
            : 'Products of this category and its subcategories are asked for these attributes, in this order.'}
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
          <SetTable
            label={`Attributes of ${category.name}`}
            inherited={inherited}
            inheritedFrom={category.parentName}
            own={own}
            canEdit={canEdit}
            onChange={setDraft}
          />
          {canEdit ? (
            <>
              <AttributePicker taken={taken} onAdd={(attribute) => setDraft([...own, attribute])} />
              <HStack gap="2" justify="flex-end">
                <Button variant="outline" disabled={!dirty || save.isPending} onClick={() => setDraft(null)}>
                  Discard changes
                </Button>
                <Button colorPalette="brand" disabled={!dirty} loading={save.isPending} onClick={submit}>
                  Save set
                </Button>
              </HStack>
            </>
          ) : null}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function SetTable({
  label,
  inherited,
  inheritedFrom,
  own,
  canEdit,
  onChange,
}: {
  label: string;
  inherited: CategoryAttributeSet['inherited'];
  inheritedFrom: string | null;
  own: AttributeSummary[];
  canEdit: boolean;
  onChange: (own: AttributeSummary[]) => void;
}) {
  if (inherited.length === 0 && own.length === 0) {
    return (
      <EmptyMessage
        title="No attributes in this set"
        description={
          canEdit ? 'Add attributes below; products of this category will be asked for them.' : undefined
        }
      />
    );
  }
  const row = (attribute: AttributeSummary, from: string | null) => (
    <>
      <Table.Cell>
        <Text fontWeight="medium">{attribute.label}</Text>
        <Text fontFamily="mono" fontSize="xs" color="fg.muted">
          {attribute.code}
        </Text>
      </Table.Cell>
      <Table.Cell>{attributeDataTypeLabels[attribute.dataType]}</Table.Cell>
      <Table.Cell>{attribute.groupName}</Table.Cell>
      <Table.Cell>{attribute.isRequired ? <Badge colorPalette="orange">Required</Badge> : null}</Table.Cell>
      <Table.Cell>{from ? <Text fontSize="sm">Inherited from {from}</Text> : null}</Table.Cell>
    </>
  );
  return (
    <TableScroll label={label}>
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Attribute</Table.ColumnHeader>
            <Table.ColumnHeader>Data type</Table.ColumnHeader>
            <Table.ColumnHeader>Group</Table.ColumnHeader>
            <Table.ColumnHeader>Required</Table.ColumnHeader>
            <Table.ColumnHeader>Source</Table.ColumnHeader>
            {canEdit ? <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader> : null}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {inherited.map((attribute) => (
            // Read-only here: a parent's set is edited on the parent.
            <Table.Row key={`inherited-${attribute.id}`} color="fg.muted" aria-disabled="true">
              {row(attribute, inheritedFrom)}
              {canEdit ? <Table.Cell /> : null}
            </Table.Row>
          ))}
          {own.map((attribute, index) => (
            <Table.Row key={attribute.id} data-attribute-id={attribute.id}>
              {row(attribute, null)}
              {canEdit ? (
                <Table.Cell>
                  <HStack gap="1" justify="flex-end">
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Move ${attribute.label} up`}
                      disabled={index === 0}
                      onClick={() => onChange(move(own, index, index - 1))}
                    >
                      <ArrowUp />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Move ${attribute.label} down`}
                      disabled={index === own.length - 1}
                      onClick={() => onChange(move(own, index, index + 1))}
                    >
                      <ArrowDown />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Remove ${attribute.label} from the set`}
                      onClick={() => onChange(own.filter((candidate) => candidate.id !== attribute.id))}
                    >
                      <X />
                    </IconButton>
                  </HStack>
                </Table.Cell>
              ) : null}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

/** Finds attributes by code or label (on the server) to add to the set; those already in it are not offered. */
function AttributePicker({
  taken,
  onAdd,
}: {
  taken: ReadonlySet<number>;
  onAdd: (attribute: AttributeSummary) => void;
}) {
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const found = useAttributes({ query, dataType: '', skip: 0, limit: PICKER_RESULTS }, query.length > 0);
  const offered = (found.data?.result ?? []).filter((attribute) => !taken.has(attribute.id));
  return (
    <Stack gap="2" data-tour="category-set-add">
      <Field.Root>
        <Field.Label>Add an attribute</Field.Label>
        <Input
          type="search"
          placeholder="Search attributes by code or label"
          maxLength={100}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </Field.Root>
      {query && found.isError ? (
        <FormMessage status="error">{getErrorMessage(found.error)}</FormMessage>
      ) : null}
      {query && found.data && offered.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          No other attribute matches “{query}”.
        </Text>
      ) : null}
      {query ? (
        <Stack gap="1" role="list" aria-label="Attributes to add">
          {offered.map((attribute) => (
            <HStack key={attribute.id} role="listitem" justify="space-between" gap="2">
              <Text fontSize="sm">
                {attribute.label}{' '}
                <Text as="span" fontFamily="mono" fontSize="xs" color="fg.muted">
                  {attribute.code}
                </Text>
              </Text>
              <Button
                size="xs"
                variant="outline"
                aria-label={`Add ${attribute.label}`}
                onClick={() => onAdd(attribute)}
              >
                <Plus /> Add
              </Button>
            </HStack>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
