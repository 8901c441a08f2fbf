import { Alert, Button, Card, Field, Heading, HStack, Stack, Switch, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import {
  allowedSellerActions,
  type SellerStatusAction,
  sellerActionLabels,
} from '../../../contracts/seller-admin';
import type { Seller, SellerStatus } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { useChangeSellerStatus, useMarkSellerFree } from './api';

const statusHelp: Record<SellerStatus, string> = {
  'Pending Verification': 'Waiting for the seller to verify their e-mail address.',
  'Pending KYC': 'E-mail verified. Review the KYC documents, then approve or reject them.',
  Active: 'The seller is live and can sell.',
  Inactive: 'The shop is paused: the seller cannot sell until it is activated again.',
};

const doneMessage: Record<SellerStatusAction, string> = {
  verifyEmail: 'E-mail verified: the seller moved to Pending KYC',
  approveKyc: 'KYC approved: the seller is now active',
  rejectKyc: 'KYC rejected: the seller sees your reason',
  activate: 'Seller activated',
  deactivate: 'Seller deactivated',
};

const REASON_MAX = 500;

function RejectKycDialog({
  open,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean;
  pending: boolean;
  error: string | null;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setInvalid(true);
      return;
    }
    onSubmit(reason.trim());
  };
  return (
    <FormDialog
      open={open}
      // Escape and the backdrop do nothing while the rejection is being sent.
      onClose={() => !pending && onClose()}
      onSubmit={submit}
      title="Reject KYC"
      submitLabel="Reject KYC"
      submitPalette="red"
      pending={pending}
    >
      <Text color="fg.muted" fontSize="sm">
        The seller stays in Pending KYC and sees this reason, so say what to fix.
      </Text>
      <FormMessage status="error">{error}</FormMessage>
      <Field.Root invalid={invalid} required>
        <Field.Label>
          Reason
          <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          name="reason"
          rows={4}
          maxLength={REASON_MAX}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setInvalid(false);
          }}
        />
        <Field.HelperText>
          {reason.length}/{REASON_MAX}
        </Field.HelperText>
        <Field.ErrorText>Give a reason; the seller sees it.</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/**
 * Where the seller stands and the lifecycle actions valid from there (the table in
 * contracts/seller-admin.ts; the server enforces the same one), plus the free-of-fee switch.
 */
export function SellerLifecyclePanel({
  seller,
  canApprove,
  canEdit,
}: {
  seller: Seller;
  canApprove: boolean;
  canEdit: boolean;
}) {
  const change = useChangeSellerStatus();
  const markFree = useMarkSellerFree();
  const [dialog, setDialog] = useState<'rejectKyc' | 'deactivate' | null>(null);
  const actions = canApprove ? allowedSellerActions(seller.status) : [];

  const run = (action: SellerStatusAction, reason?: string) =>
    change.mutate(
      { id: seller.id, action, reason },
      {
        onSuccess: () => {
          notify({ type: 'success', title: doneMessage[action] });
          setDialog(null);
          change.reset();
        },
      },
    );
  const closeDialog = () => {
    setDialog(null);
    change.reset();
  };
  const error = change.isError ? getErrorMessage(change.error) : null;

  return (
    <Card.Root variant="outline">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading size="sm">Status: {seller.status}</Heading>
          <Text color="fg.muted" fontSize="sm">
            {statusHelp[seller.status]}
          </Text>
        </Stack>
        {seller.kycRejectionReason && seller.status === 'Pending KYC' ? (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>KYC was rejected</Alert.Title>
              <Alert.Description whiteSpace="pre-wrap">{seller.kycRejectionReason}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : null}
        <FormMessage status="error">{dialog ? null : error}</FormMessage>
        {actions.length > 0 ? (
          <HStack gap="2" wrap="wrap">
            {actions.map((action) => (
              <Button
                key={action}
                size="sm"
                colorPalette={action === 'rejectKyc' || action === 'deactivate' ? 'red' : 'brand'}
                variant={action === 'rejectKyc' || action === 'deactivate' ? 'outline' : 'solid'}
                loading={change.isPending && change.variables?.action === action}
                disabled={change.isPending}
                onClick={() =>
                  action === 'rejectKyc' || action === 'deactivate' ? setDialog(action) : run(action)
                }
              >
                {sellerActionLabels[action]}
              </Button>
            ))}
          </HStack>
        ) : null}
        <Switch.Root
          colorPalette="brand"
          checked={seller.isFree}
          disabled={!canEdit || markFree.isPending}
          onCheckedChange={(event) =>
            markFree.mutate(
              { id: seller.id, isFree: event.checked },
              {
                onSuccess: (updated) =>
                  notify({
                    type: 'success',
                    title: updated.isFree
                      ? 'Marked free of the subscription fee'
                      : 'Subscription fee applies',
                  }),
              },
            )
          }
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>Free seller: no subscription fee (also unblocks)</Switch.Label>
        </Switch.Root>
      </Card.Body>
      {/* Mounted only while open, so every rejection starts with an empty reason. */}
      {dialog === 'rejectKyc' ? (
        <RejectKycDialog
          open
          pending={change.isPending}
          error={error}
          onSubmit={(reason) => run('rejectKyc', reason)}
          onClose={closeDialog}
        />
      ) : null}
      <ConfirmDialog
        open={dialog === 'deactivate'}
        title={`Deactivate ${seller.sellerName}?`}
        description="Their shop is paused and they cannot sell until it is activated again."
        confirmLabel="Deactivate"
        danger
        pending={change.isPending}
        error={dialog === 'deactivate' ? error : null}
        onConfirm={() => run('deactivate')}
        onClose={closeDialog}
      />
    </Card.Root>
  );
}
