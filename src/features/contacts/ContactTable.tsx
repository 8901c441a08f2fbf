import { Badge, HStack, Link, Table, Text } from '@chakra-ui/react';
import type { Contact, ContactSortField } from '../../../contracts/contacts';
import { formatDate } from '../../../contracts/domain/format';
import { contactSourceLabels } from '../../../contracts/marketing';
import { SortHeader } from '../../ui/sort-header';
import { TableScroll } from '../../ui/table-scroll';
import { SubscriptionBadge } from './SubscriptionBadge';

const fullName = (contact: Contact) => `${contact.firstName} ${contact.lastName}`.trim();

/** The list's rows: the name opens the contact's page; tags beyond three are counted. */
export function ContactTable({
  rows,
  sort,
  order,
  onSort,
  onOpen,
}: {
  rows: Contact[];
  sort: ContactSortField;
  order: 'asc' | 'desc';
  onSort: (field: ContactSortField) => void;
  onOpen: (id: string) => void;
}) {
  return (
    <TableScroll label="Contacts">
      <Table.Root size="sm" aria-label="Contacts" interactive>
        <Table.Header>
          <Table.Row>
            <SortHeader field="name" label="Name" sort={sort} order={order} onSort={onSort} />
            <SortHeader field="email" label="E-mail" sort={sort} order={order} onSort={onSort} />
            <Table.ColumnHeader>Company</Table.ColumnHeader>
            <Table.ColumnHeader>Company type</Table.ColumnHeader>
            <Table.ColumnHeader>Country</Table.ColumnHeader>
            <Table.ColumnHeader>Language</Table.ColumnHeader>
            <Table.ColumnHeader>Tags</Table.ColumnHeader>
            <Table.ColumnHeader>Source</Table.ColumnHeader>
            <Table.ColumnHeader>Subscription</Table.ColumnHeader>
            <SortHeader
              field="lastContactedAt"
              label="Last contacted"
              sort={sort}
              order={order}
              onSort={onSort}
              wrap
            />
            <SortHeader field="createdAt" label="Created" sort={sort} order={order} onSort={onSort} />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((contact) => (
            <Table.Row key={contact.id}>
              <Table.Cell>
                <Link as="button" onClick={() => onOpen(contact.id)} fontWeight="medium">
                  {fullName(contact) || '(no name)'}
                </Link>
              </Table.Cell>
              {/* Long texts are cut with an ellipsis (whole on hover): the columns fit 1440 px (issue 26). */}
              <Table.Cell>
                <Text truncate maxW="36" title={contact.email}>
                  {contact.email}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="28" title={contact.company || undefined}>
                  {contact.company || '—'}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="32" title={contact.companyTypeName ?? undefined}>
                  {contact.companyTypeName ?? '—'}
                </Text>
              </Table.Cell>
              <Table.Cell>{contact.country ?? '—'}</Table.Cell>
              <Table.Cell>{contact.language}</Table.Cell>
              <Table.Cell whiteSpace="normal">
                <HStack gap="1" wrap="wrap" maxW="36">
                  {contact.tags.slice(0, 3).map((tag) => (
                    <Badge key={tag} variant="outline" size="sm" maxW="20" title={tag}>
                      <Text as="span" truncate>
                        {tag}
                      </Text>
                    </Badge>
                  ))}
                  {contact.tags.length > 3 ? (
                    <Text fontSize="xs" color="fg.muted">
                      +{contact.tags.length - 3}
                    </Text>
                  ) : null}
                </HStack>
              </Table.Cell>
              <Table.Cell whiteSpace="normal">{contactSourceLabels[contact.source]}</Table.Cell>
              <Table.Cell>
                <SubscriptionBadge state={contact.subscription} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                {contact.lastContactedAt ? formatDate(contact.lastContactedAt) : '—'}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(contact.createdAt)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
