import {
  Badge,
  Button,
  CloseButton,
  DataList,
  Drawer,
  HStack,
  Portal,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { MailX, Pencil, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { Contact } from '../../../contracts/contacts';
import { formatDateTime } from '../../../contracts/domain/format';
import {
  contactSourceLabels,
  type TemplateLanguage,
  templateLanguageLabels,
} from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/http';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ContactTimeline } from '../../ui/contact-timeline';
import { ErrorState, LoadingState } from '../../ui/page-states';
import {
  useCompanyTypes,
  useContact,
  useContactTimeline,
  useDeleteContact,
  useUnsubscribeContact,
} from './api';
import { SubscriptionBadge } from './SubscriptionBadge';

const methodText: Record<string, string> = {
  link: 'through the link in a mail',
  one_click: 'through their mail app’s unsubscribe button',
  staff: 'by a staff member',
  suppression_list: 'before it was a contact (the address was on the suppression list)',
};

function Details({ contact }: { contact: Contact }) {
  const rows: [string, string][] = [
    ['E-mail', contact.email],
    ['Phone', contact.phone || '—'],
    ['Company', contact.company || '—'],
    ['Company type', contact.companyTypeName ?? '—'],
    ['Country', contact.country ?? '—'],
    ['Language', templateLanguageLabels[contact.language as TemplateLanguage] ?? contact.language],
    ['Source', contactSourceLabels[contact.source]],
    ['Consent', contact.consent ? `Yes, since ${formatDateTime(contact.consentAt)}` : 'No'],
    ['Created', formatDateTime(contact.createdAt)],
    ['Last contacted', formatDateTime(contact.lastContactedAt)],
  ];
  return (
    <Stack gap="3">
      <HStack gap="2" wrap="wrap">
        <SubscriptionBadge state={contact.subscription} />
        {contact.subscription === 'unsubscribed' ? (
          <Text fontSize="sm" color="fg.muted">
            {formatDateTime(contact.unsubscribedAt)} {methodText[contact.unsubscribeMethod ?? ''] ?? ''}
          </Text>
        ) : null}
        {contact.subscription === 'bounced' ? (
          <Text fontSize="sm" color="fg.muted">
            {formatDateTime(contact.bouncedAt)}: {contact.bounceReason}
          </Text>
        ) : null}
      </HStack>
      <DataList.Root orientation="horizontal" size="sm">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {contact.tags.length ? (
        <Wrap gap="1" aria-label="Tags">
          {contact.tags.map((tag) => (
            <Badge key={tag} variant="outline">
              {tag}
            </Badge>
          ))}
        </Wrap>
      ) : null}
    </Stack>
  );
}

function Timeline({ id }: { id: string }) {
  const history = useContactTimeline(id);
  const types = useCompanyTypes();
  const companyTypeName = useCallback(
    (value: string) => types.data?.find((type) => type.id === value)?.name,
    [types.data],
  );
  return <ContactTimeline history={history} companyTypeName={companyTypeName} />;
}

/** The contact's page beside the list (`?contact=id`): its details, actions and everything that happened. */
export function ContactDrawer({
  id,
  canEdit,
  canDelete,
  onEdit,
  onClose,
}: {
  id: string | null;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (contact: Contact) => void;
  onClose: () => void;
}) {
  const contact = useContact(id);
  const unsubscribe = useUnsubscribeContact();
  const remove = useDeleteContact();
  const [confirm, setConfirm] = useState<'unsubscribe' | 'delete' | null>(null);
  const data = contact.data;
  const closeConfirm = () => {
    setConfirm(null);
    unsubscribe.reset();
    remove.reset();
  };
  return (
    <Drawer.Root open={Boolean(id)} onOpenChange={(event) => !event.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title truncate>
                {data ? `${data.firstName} ${data.lastName}`.trim() || data.email : 'Contact'}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {contact.isPending ? (
                <LoadingState label="Loading the contact" />
              ) : contact.isError ? (
                <ErrorState message={getErrorMessage(contact.error)} onRetry={() => contact.refetch()} />
              ) : data ? (
                <Stack gap="5">
                  <HStack gap="2" wrap="wrap">
                    {canEdit ? (
                      <Button size="sm" variant="outline" onClick={() => onEdit(data)}>
                        <Pencil /> Edit
                      </Button>
                    ) : null}
                    {canEdit && data.subscription === 'subscribed' ? (
                      <Button size="sm" variant="outline" onClick={() => setConfirm('unsubscribe')}>
                        <MailX /> Unsubscribe
                      </Button>
                    ) : null}
                    {canDelete ? (
                      <Button
                        size="sm"
                        variant="outline"
                        colorPalette="red"
                        onClick={() => setConfirm('delete')}
                      >
                        <Trash2 /> Delete
                      </Button>
                    ) : null}
                  </HStack>
                  <Details contact={data} />
                  <Stack gap="2">
                    <Text fontWeight="semibold">Timeline</Text>
                    <Timeline id={data.id} />
                  </Stack>
                </Stack>
              ) : null}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
      {data ? (
        <>
          <ConfirmDialog
            open={confirm === 'unsubscribe'}
            title="Unsubscribe this contact?"
            description={`${data.email} will get no more marketing mail. Only the person can subscribe again; the back office cannot undo this.`}
            confirmLabel="Unsubscribe"
            danger
            pending={unsubscribe.isPending}
            error={unsubscribe.isError ? getErrorMessage(unsubscribe.error) : null}
            onConfirm={() =>
              unsubscribe.mutate({ id: data.id, version: data.version }, { onSuccess: closeConfirm })
            }
            onClose={closeConfirm}
          />
          <ConfirmDialog
            open={confirm === 'delete'}
            title="Delete this contact?"
            description={`${data.email} and its timeline are deleted. Its help chats and queries stay. An unsubscribed address stays on the suppression list.`}
            confirmLabel="Delete"
            danger
            pending={remove.isPending}
            error={remove.isError ? getErrorMessage(remove.error) : null}
            onConfirm={() =>
              remove.mutate(
                { id: data.id, version: data.version },
                {
                  onSuccess: () => {
                    closeConfirm();
                    onClose();
                  },
                },
              )
            }
            onClose={closeConfirm}
          />
        </>
      ) : null}
    </Drawer.Root>
  );
}
