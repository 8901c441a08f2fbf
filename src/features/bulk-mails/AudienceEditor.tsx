// Who a campaign mails: quick pickers for country, company type, template received and template
// language (SPEC §2) that write into the one query tree, the shared query builder for everything else,
// the contacts' saved views (an audience is saved and shared like a view), and the count of contacts
// that would be mailed, asked again of the server whenever the filters pause changing.
import {
  Alert,
  Badge,
  Box,
  Button,
  Collapsible,
  Combobox,
  createListCollection,
  Field,
  Grid,
  Heading,
  HStack,
  Input,
  Portal,
  Skeleton,
  Stack,
  Table,
  Tag,
  Text,
} from '@chakra-ui/react';
import { Filter, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { Audience } from '../../../contracts/campaigns';
import { CONTACTS_ROUTE } from '../../../contracts/contacts';
import { formatNumber } from '../../../contracts/domain/format';
import { normalizeText, type QueryField, type QueryTree } from '../../../contracts/query-tree';
import { getErrorMessage } from '../../services/api-error';
import { useRouteActions } from '../../services/route-permissions';
import { ErrorState } from '../../ui/page-states';
import { QueryBuilder } from '../../ui/query-builder';
import { SavedViewsMenu } from '../../ui/saved-views';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useAudienceCount, useContactFields } from './api';
import { audienceViewState, type QuickField, quickFields, quickValues, setQuickValues } from './audience';
import { audienceOf } from './campaign-form';

export const AUDIENCE_COUNT_DEBOUNCE_MS = 400;

const quickLabels: Record<QuickField, string> = {
  country: 'Country',
  companyType: 'Company type',
  receivedTemplate: 'Received template',
  language: 'Template language',
};

/** A searchable multi-select over a field's options, its choices as removable chips. */
function QuickPicker({
  field,
  label,
  values,
  onChange,
  disabled,
}: {
  field: QueryField | undefined;
  label: string;
  values: string[];
  onChange(values: string[]): void;
  disabled: boolean;
}) {
  const [search, setSearch] = useState('');
  const options = field?.options ?? [];
  const items = useMemo(() => {
    const wanted = normalizeText(search);
    return options
      .filter((option) => !wanted || normalizeText(option.label).includes(wanted))
      .map((option) => ({ value: String(option.value), label: option.label }));
  }, [options, search]);
  const collection = useMemo(() => createListCollection({ items }), [items]);
  const labelOf = (value: string) => options.find((option) => String(option.value) === value)?.label ?? value;

  return (
    <Stack gap="1.5">
      <Combobox.Root
        collection={collection}
        multiple
        closeOnSelect={false}
        value={values}
        onValueChange={(details) => onChange(details.value)}
        onInputValueChange={(details) => {
          if (details.reason === 'input-change') setSearch(details.inputValue);
          else setSearch('');
        }}
        onOpenChange={(details) => {
          if (details.reason !== 'input-change') setSearch('');
        }}
        openOnClick
        inputBehavior="autohighlight"
        lazyMount
        unmountOnExit
        disabled={disabled || !field}
        size="sm"
      >
        <Combobox.Label>{label}</Combobox.Label>
        <Combobox.Control>
          <Combobox.Input placeholder={!field ? 'Loading…' : values.length ? 'Add another…' : 'Any'} />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content maxH="72" overflowY="auto">
              <Combobox.Empty>No option matches.</Combobox.Empty>
              {collection.items.map((item) => (
                <Combobox.Item key={item.value} item={item}>
                  {item.label}
                  <Combobox.ItemIndicator />
                </Combobox.Item>
              ))}
            </Combobox.Content>
          </Combobox.Positioner>
        </Portal>
      </Combobox.Root>
      {values.length ? (
        <HStack as="ul" aria-label={`Chosen ${label.toLowerCase()}`} gap="1" wrap="wrap" listStyleType="none">
          {values.map((value) => (
            <Tag.Root as="li" key={value} size="sm" variant="surface">
              <Tag.Label>{labelOf(value)}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger
                  aria-label={`Remove ${labelOf(value)}`}
                  disabled={disabled}
                  onClick={() => onChange(values.filter((chosen) => chosen !== value))}
                />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </HStack>
      ) : null}
    </Stack>
  );
}

/** How many contacts the audience matches and how many of them would be mailed, with a few of them. */
export function AudienceCount({ audience }: { audience: Audience }) {
  const debounced = useDebouncedValue(audience, AUDIENCE_COUNT_DEBOUNCE_MS);
  const count = useAudienceCount(debounced);
  const updating = count.isFetching || debounced !== audience;
  return (
    <Box
      borderWidth="1px"
      rounded="md"
      p="4"
      aria-live="polite"
      data-testid="audience-count"
      data-tour="audience-count"
    >
      {count.isError ? (
        <Alert.Root status="error" size="sm">
          <Alert.Indicator />
          <Alert.Title>{getErrorMessage(count.error)}</Alert.Title>
        </Alert.Root>
      ) : !count.data ? (
        <Stack gap="2" aria-busy="true" aria-label="Counting the audience">
          <Skeleton height="8" width="48" />
          <Skeleton height="4" width="64" />
        </Stack>
      ) : (
        <Stack gap="3" opacity={updating ? 0.6 : 1} aria-busy={updating}>
          <HStack gap="3" align="baseline" wrap="wrap">
            <Users size={18} aria-hidden />
            <Text fontSize="2xl" fontWeight="bold" data-testid="audience-mailable">
              {formatNumber(count.data.mailable)}
            </Text>
            <Text>{count.data.mailable === 1 ? 'contact will be mailed' : 'contacts will be mailed'}</Text>
          </HStack>
          <Text fontSize="sm" color="fg.muted" data-testid="audience-matching">
            {formatNumber(count.data.matching)} matching
            {count.data.matching > count.data.mailable
              ? ` · ${formatNumber(count.data.matching - count.data.mailable)} unsubscribed or bounced, never mailed`
              : ''}
          </Text>
          {count.data.mailable === 0 ? (
            <Alert.Root status="warning" size="sm">
              <Alert.Indicator />
              <Alert.Title>Nobody would receive this campaign. Widen the filters.</Alert.Title>
            </Alert.Root>
          ) : null}
          {count.data.sample.length ? (
            <Table.Root size="sm" aria-label="Some of the contacts">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Contact</Table.ColumnHeader>
                  <Table.ColumnHeader>E-mail</Table.ColumnHeader>
                  <Table.ColumnHeader>Language</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {count.data.sample.map((contact) => (
                  <Table.Row key={contact.id}>
                    <Table.Cell>{contact.name || '—'}</Table.Cell>
                    <Table.Cell wordBreak="break-all">{contact.email}</Table.Cell>
                    <Table.Cell>
                      <Badge variant="subtle">{contact.language}</Badge>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          ) : null}
        </Stack>
      )}
    </Box>
  );
}

export interface AudienceValue {
  query: QueryTree;
  search: string;
  audienceViewId: string | null;
}

export function AudienceEditor({
  value,
  onChange,
  disabled = false,
  error,
}: {
  value: AudienceValue;
  onChange(patch: Partial<AudienceValue>): void;
  disabled?: boolean;
  error?: string;
}) {
  const fields = useContactFields();
  const fieldList = fields.data;
  const byKey = useMemo(() => new Map((fieldList ?? []).map((field) => [field.key, field])), [fieldList]);
  const contacts = useRouteActions(CONTACTS_ROUTE);
  const [moreOpen, setMoreOpen] = useState(false);
  const audience = useMemo(() => audienceOf(value, fieldList), [value, fieldList]);
  const quickCount = quickFields.reduce(
    (sum, key) => sum + Number(quickValues(value.query, key).length > 0),
    0,
  );
  const otherConditions = audience.query.children.length - quickCount;

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading size="md">Audience</Heading>
        <Box data-tour="saved-audiences">
          <SavedViewsMenu
            list="contacts"
            current={audienceViewState(audience, null)}
            viewId={value.audienceViewId}
            onLoad={(view) =>
              onChange({ query: view.state.query, search: view.state.search, audienceViewId: view.id })
            }
            onUnload={() => onChange({ audienceViewId: null })}
            canPublish={contacts.can('publish')}
            neutralLabel="Saved audiences"
          />
        </Box>
      </HStack>
      {fields.isError ? (
        <ErrorState message={getErrorMessage(fields.error)} onRetry={() => void fields.refetch()} />
      ) : null}
      <Grid
        templateColumns={{ base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }}
        gap="4"
        data-tour="contact-filters"
      >
        {quickFields.map((key) => (
          <QuickPicker
            key={key}
            field={byKey.get(key)}
            label={quickLabels[key]}
            values={quickValues(value.query, key)}
            disabled={disabled}
            onChange={(values) => onChange({ query: setQuickValues(value.query, key, values) })}
          />
        ))}
      </Grid>
      <Field.Root>
        <Field.Label>Name, e-mail or company contains</Field.Label>
        <Input
          size="sm"
          maxLength={100}
          value={value.search}
          readOnly={disabled}
          onChange={(event) => onChange({ search: event.target.value })}
        />
      </Field.Root>
      <Collapsible.Root open={moreOpen} onOpenChange={(details) => setMoreOpen(details.open)}>
        <Collapsible.Trigger asChild>
          <Button variant="outline" size="sm" alignSelf="start" aria-expanded={moreOpen}>
            <Filter /> All conditions
            {otherConditions > 0 ? <Badge colorPalette="brand">{otherConditions} more</Badge> : null}
          </Button>
        </Collapsible.Trigger>
        <Collapsible.Content>
          <Box borderWidth="1px" rounded="md" p="3" mt="3">
            <Text fontSize="sm" color="fg.muted" mb="2">
              The pickers above are conditions of this query too: combine them with tags, source, consent,
              dates and nested AND / OR groups.
            </Text>
            {fieldList ? (
              <QueryBuilder
                fields={fieldList}
                value={value.query}
                onChange={(query) => onChange({ query })}
                disabled={disabled}
              />
            ) : (
              <Text color="fg.muted">Loading the fields…</Text>
            )}
          </Box>
        </Collapsible.Content>
      </Collapsible.Root>
      {error ? (
        <Text color="fg.error" fontSize="sm">
          {error}
        </Text>
      ) : null}
      <AudienceCount audience={audience} />
    </Stack>
  );
}
