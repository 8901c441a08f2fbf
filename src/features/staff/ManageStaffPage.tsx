import { Badge, Box, Button, Card, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { formatDate } from '../../../contracts/domain/format';
import { STAFF_PAGE_SIZE, type StaffMember, type StaffStatusFilter } from '../../../contracts/staff';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { VideoCallButton } from '../../ui/video-call/VideoCallButton';
import { useResendInvite, useSetStaffActive, useStaffList } from './api';
import { InviteStaffDialog } from './InviteStaffDialog';

const PAGE = '/staff/manage-staff';
const PERMISSIONS_PAGE = '/permission/UserPermission';

function StatusToggleDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const setActive = useSetStaffActive();
  const [shown, setShown] = useState<StaffMember | null>(member);
  if (member && member !== shown) setShown(member);
  const deactivating = shown?.isActive ?? true;
  const close = () => {
    setActive.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!member}
      title={deactivating ? `Deactivate ${shown?.username}?` : `Reactivate ${shown?.username}?`}
      description={
        deactivating
          ? 'They are signed out everywhere at once and cannot sign in until an admin reactivates them.'
          : 'They can sign in again with their password, with the permissions they had.'
      }
      confirmLabel={deactivating ? 'Deactivate' : 'Reactivate'}
      danger={deactivating}
      pending={setActive.isPending}
      error={setActive.isError ? getErrorMessage(setActive.error) : null}
      onClose={close}
      onConfirm={() =>
        shown &&
        setActive.mutate(
          { id: shown.id, isActive: !shown.isActive },
          {
            onSuccess: (answer) => {
              notify({ type: 'success', title: answer.message });
              close();
            },
          },
        )
      }
    />
  );
}

function StaffRow({
  member,
  canEdit,
  canInvite,
  canOpenPermissions,
  onToggle,
}: {
  member: StaffMember;
  canEdit: boolean;
  canInvite: boolean;
  canOpenPermissions: boolean;
  onToggle: (member: StaffMember) => void;
}) {
  const resend = useResendInvite();
  return (
    <Table.Row data-staff-id={member.id}>
      <Table.Cell>
        <Text fontWeight="medium">{member.username}</Text>
      </Table.Cell>
      <Table.Cell>{member.email}</Table.Cell>
      <Table.Cell>
        <HStack gap="1" wrap="wrap">
          <Badge colorPalette={member.isActive ? 'green' : 'gray'}>
            {member.isActive ? 'Active' : 'Deactivated'}
          </Badge>
          {member.invitePending ? <Badge colorPalette="orange">Invitation pending</Badge> : null}
        </HStack>
      </Table.Cell>
      <Table.Cell>{formatDate(member.createdAt)}</Table.Cell>
      <Table.Cell>
        <HStack gap="2" justify="flex-end" wrap="wrap">
          {member.isActive && !member.invitePending ? (
            <VideoCallButton
              compact
              size="xs"
              peer={{ id: member.id, name: member.username, avatarUrl: null }}
            />
          ) : null}
          {canOpenPermissions ? (
            <Button asChild size="xs" variant="outline">
              <RouterLink
                href={`${PERMISSIONS_PAGE}?userId=${member.id}`}
                aria-label={`Permissions of ${member.username}`}
              >
                Permissions
              </RouterLink>
            </Button>
          ) : null}
          {canInvite && member.isActive ? (
            <Button
              size="xs"
              variant="ghost"
              loading={resend.isPending}
              // The words shown come first in the name (WCAG 2.5.3, label in name).
              aria-label={
                member.invitePending
                  ? `Resend invitation to ${member.username}`
                  : `Send password reset link to ${member.username}`
              }
              onClick={() =>
                resend.mutate(member.id, {
                  onSuccess: (answer) => notify({ type: 'success', title: answer.message }),
                })
              }
            >
              {/* The server sends the invitation again while it is pending, a password reset otherwise. */}
              {member.invitePending ? 'Resend invitation' : 'Send password reset link'}
            </Button>
          ) : null}
          {canEdit ? (
            <Button
              size="xs"
              variant="outline"
              colorPalette={member.isActive ? 'red' : 'brand'}
              aria-label={`${member.isActive ? 'Deactivate' : 'Reactivate'} ${member.username}`}
              onClick={() => onToggle(member)}
            >
              {member.isActive ? 'Deactivate' : 'Reactivate'}
            </Button>
          ) : null}
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
}

/** The staff of the back-office: invite, switch accounts off and on, open each one's permissions. */
export default function ManageStaffPage() {
  const { can } = useRouteActions(PAGE);
  const permissionsPage = useRouteActions(PERMISSIONS_PAGE);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StaffStatusFilter>('all');
  const [skip, setSkip] = useState(0);
  const [inviting, setInviting] = useState(false);
  const [toggling, setToggling] = useState<StaffMember | null>(null);
  const query = useDebouncedValue(search.trim());
  const staff = useStaffList({ query, status, skip, limit: STAFF_PAGE_SIZE });
  const filtered = query !== '' || status !== 'all';

  return (
    <>
      <PageHeader
        title="Manage Staff"
        description="Invite staff members, switch their accounts off and on, and set what each may do."
        actions={
          <HStack gap="2">
            {permissionsPage.can('view') ? (
              <Button asChild variant="outline">
                <RouterLink href={PERMISSIONS_PAGE}>Role permissions</RouterLink>
              </Button>
            ) : null}
            {can('create') ? (
              <Button colorPalette="brand" onClick={() => setInviting(true)} data-tour="invite-staff">
                Invite staff
              </Button>
            ) : null}
          </HStack>
        }
      />
      <Card.Root>
        <Card.Body>
          <Stack direction={{ base: 'column', md: 'row' }} gap="3" mb="4" data-tour="staff-filters">
            <Input
              placeholder="Search by name or e-mail"
              aria-label="Search staff"
              maxLength={100}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setSkip(0);
              }}
            />
            <NativeSelect.Root w={{ md: '56' }}>
              <NativeSelect.Field
                aria-label="Status"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as StaffStatusFilter);
                  setSkip(0);
                }}
              >
                <option value="all">All staff</option>
                <option value="active">Active</option>
                <option value="inactive">Deactivated</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Stack>
          <Box data-tour="staff-table">
            {staff.isPending ? (
              <LoadingState rows={5} label="Loading staff" />
            ) : staff.isError ? (
              <ErrorState message={getErrorMessage(staff.error)} onRetry={() => staff.refetch()} />
            ) : staff.data.rows.length === 0 ? (
              filtered ? (
                <EmptyMessage title="No staff match" description="Try another name, e-mail or status." />
              ) : (
                <EmptyMessage
                  title="No staff yet"
                  description={
                    can('create') ? 'Invite your first staff member.' : 'An admin can invite staff members.'
                  }
                />
              )
            ) : (
              <PagedTable
                label="Staff"
                pagerLabel="Staff pages"
                skip={skip}
                limit={STAFF_PAGE_SIZE}
                count={staff.data.count}
                onSkipChange={setSkip}
                stale={staff.isPlaceholderData}
                busy={staff.isFetching}
                columns={
                  <>
                    <Table.ColumnHeader>Name</Table.ColumnHeader>
                    <Table.ColumnHeader>E-mail</Table.ColumnHeader>
                    <Table.ColumnHeader>Status</Table.ColumnHeader>
                    <Table.ColumnHeader>Added</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
                  </>
                }
              >
                {staff.data.rows.map((member) => (
                  <StaffRow
                    key={member.id}
                    member={member}
                    canEdit={can('edit')}
                    canInvite={can('create')}
                    canOpenPermissions={permissionsPage.can('view')}
                    onToggle={setToggling}
                  />
                ))}
              </PagedTable>
            )}
          </Box>
        </Card.Body>
      </Card.Root>
      <InviteStaffDialog open={inviting} onClose={() => setInviting(false)} />
      <StatusToggleDialog member={toggling} onClose={() => setToggling(null)} />
    </>
  );
}
