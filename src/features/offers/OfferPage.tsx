import { Alert, Badge, Button, DataList, Grid, HStack, List, Stack, Text } from '@chakra-ui/react';
import { Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation, useSearch } from 'wouter';
import { formatDateTime, formatDay } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import { diffOffers } from '../../../contracts/domain/offer-diff';
import { OFFER_PAGE, type OfferDetail } from '../../../contracts/offers';
import { CREATE_ORDER_ROUTE, orderAddressSchema, orderPageLink } from '../../../contracts/orders';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { AddressFields, type AddressForm, emptyAddress } from '../../ui/address-fields';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import { PricingTable } from '../../ui/pricing-table';
import { SectionCard } from '../../ui/section-card';
import { useOfferDetail, useOrderFromOffer, useSendOffer } from './api';
import { DraftEditor } from './DraftEditor';
import { OfferDiffView } from './OfferDiffView';
import { OfferEvidence } from './OfferEvidence';
import { OfferHistory } from './OfferHistory';
import { OfferStatusBadge } from './OfferStatusBadge';
import { offerReference } from './OfferTable';
import { OfferVersions } from './OfferVersions';

function Request({ offer }: { offer: OfferDetail }) {
  const address = offer.shippingAddress;
  const where = address
    ? [
        address.addressLine1,
        address.addressLine2,
        `${address.zipcode} ${address.city}`.trim(),
        address.state,
        address.country,
      ]
        .filter((part) => part?.trim())
        .join(', ')
    : '';
  const rows: [string, string][] = [
    ['Customer', offer.customerName],
    ['E-mail', offer.email],
    ['Phone', offer.phone || '—'],
    ['Ship to', where || '—'],
    ['Seller', offer.sellerName ?? '—'],
    ['Requested', formatDateTime(offer.createdAt)],
  ];
  return (
    <Stack gap="3">
      <DataList.Root orientation="horizontal" size="sm">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      <Stack gap="1">
        <Text fontWeight="medium">Products asked for</Text>
        {offer.requestedItems.length ? (
          <List.Root ps="5" aria-label="Products asked for">
            {offer.requestedItems.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the request's items never change
              <List.Item key={`${item.productId}-${index}`}>
                {item.quantity} × {item.name || 'A product no longer in the catalog'}
                {item.note ? ` (${item.note})` : ''}
              </List.Item>
            ))}
          </List.Root>
        ) : (
          <Text color="fg.muted">None named.</Text>
        )}
      </Stack>
      <Stack gap="1">
        <Text fontWeight="medium">Message</Text>
        <Text whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="offer-message">
          {offer.message || '—'}
        </Text>
      </Stack>
    </Stack>
  );
}

/** Why Send is not offered now, in words; null when it may be pressed. */
export function sendBlocker(offer: OfferDetail, dirty: boolean): string | null {
  if (offer.status === 'accepted') return 'The customer accepted this offer; it cannot be revised.';
  if (dirty) return 'Save the draft first: sending freezes the draft as the server priced it.';
  if (!offer.draft) return 'Save a draft before sending the offer.';
  if (offer.draft.pricingErrors.length) return 'Correct the pricing problems before sending.';
  if (!offer.canSend) return 'This offer cannot be sent now.';
  return null;
}

function SendBar({ offer, dirty }: { offer: OfferDetail; dirty: boolean }) {
  const { can } = useRouteActions(OFFER_PAGE);
  const send = useSendOffer(offer.id);
  const next = offer.currentVersion + 1;
  if (!can('approve'))
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="send-needs-approve">
        Sending an offer needs the Approve permission on the Offer page; ask someone who has it.
      </Text>
    );
  const blocker = sendBlocker(offer, dirty);
  const label = offer.status === 'expired' ? `Reopen as version ${next}` : `Send version ${next}`;
  return (
    <Stack gap="2">
      <HStack gap="3" wrap="wrap">
        <Button
          colorPalette="brand"
          disabled={blocker !== null}
          loading={send.isPending}
          onClick={() => send.mutate()}
          data-tour="offer-send"
          aria-describedby={blocker ? 'offer-send-blocker' : undefined}
        >
          <Send /> {label}
        </Button>
        {blocker ? (
          <Text id="offer-send-blocker" fontSize="sm" color="fg.muted">
            {blocker}
          </Text>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            Freezes the draft and mails {offer.email} a link to version {next}.
          </Text>
        )}
      </HStack>
      <FormMessage status="error">{send.isError ? getErrorMessage(send.error) : null}</FormMessage>
      {send.isSuccess ? (
        <Text fontSize="sm" role="status">
          Version {offer.currentVersion} sent to {offer.email}.
        </Text>
      ) : null}
    </Stack>
  );
}

function DraftSection({ offer, canEdit }: { offer: OfferDetail; canEdit: boolean }) {
  const [dirty, setDirty] = useState(false);
  const diff = offer.draft && offer.lastSent ? diffOffers(offer.lastSent, offer.draft) : null;
  return (
    <Stack gap="4">
      {offer.status === 'expired' ? (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Version {offer.currentVersion} expired</Alert.Title>
            <Alert.Description>
              The customer can no longer accept it. Reopen it as a new version: choose a new validity day,
              save the draft, then send it.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
      <DraftEditor offer={offer} canEdit={canEdit} onDirty={setDirty} />
      {offer.draft ? (
        <Stack gap="3" data-testid="priced-draft">
          <Text fontWeight="medium">Version {offer.currentVersion + 1} as the server priced it</Text>
          {offer.draft.pricingErrors.length ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>It cannot be sent yet</Alert.Title>
                <Alert.Description>
                  <List.Root ps="4">
                    {offer.draft.pricingErrors.map((problem) => (
                      <List.Item key={problem}>{problem}</List.Item>
                    ))}
                  </List.Root>
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : null}
          <PricingTable pricing={offer.draft} caption={`Draft of version ${offer.currentVersion + 1}`} />
          {diff ? (
            <Stack gap="2">
              <Text fontWeight="medium">Changes against the sent version {offer.currentVersion}</Text>
              <OfferDiffView
                diff={diff}
                currency={offer.draft.currency}
                label={`Draft against version ${offer.currentVersion}`}
              />
            </Stack>
          ) : null}
        </Stack>
      ) : null}
      <SendBar offer={offer} dirty={dirty} />
    </Stack>
  );
}

/** The offer's address as the order form starts it: the customer's name and e-mail, its country. */
function startingAddress(offer: OfferDetail): AddressForm {
  const address = offer.shippingAddress;
  return {
    ...emptyAddress,
    ...(address ?? {}),
    fullName: address?.fullName || offer.customerName,
    email: address?.email || offer.email,
    country: (address?.country ?? offer.lastSent?.shippingCountry ?? '').toUpperCase(),
  };
}

/**
 * An accepted offer's order: a link to it, or "Create order" for those who may place orders. The order
 * keeps the accepted version's prices and taxes; the dialog asks where the goods go (an enquiry's
 * request has only a country), prefilled from the offer.
 */
function OrderLink({ offer }: { offer: OfferDetail }) {
  const orders = useRouteActions(CREATE_ORDER_ROUTE);
  const make = useOrderFromOffer(offer.id);
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState<AddressForm>(() => startingAddress(offer));
  const [errors, setErrors] = useState<Partial<Record<keyof AddressForm, string>>>({});
  if (offer.orderId)
    return (
      <Button asChild size="xs" variant="outline">
        <RouterLink href={orderPageLink(offer.orderId)}>Open its order</RouterLink>
      </Button>
    );
  if (!orders.can('create')) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = orderAddressSchema.safeParse(address);
    if (!checked.success) {
      setErrors(fieldErrors(checked.error.issues, Object.keys(emptyAddress) as (keyof AddressForm)[]));
      return;
    }
    setErrors({});
    make.mutate(checked.data, { onSuccess: (orderId) => navigate(orderPageLink(orderId)) });
  };
  return (
    <>
      <Button size="xs" colorPalette="brand" onClick={() => setOpen(true)} data-tour="offer-create-order">
        Create order
      </Button>
      <FormDialog
        open={open}
        onClose={() => setOpen(false)}
        onSubmit={submit}
        title="Create the order"
        submitLabel="Create order"
        pending={make.isPending}
        size="lg"
      >
        <Text fontSize="sm" color="fg.muted">
          The order keeps version {offer.currentVersion}’s prices and taxes and reserves its stock. Where do
          the goods go?
        </Text>
        <AddressFields idPrefix="order-shipping" value={address} errors={errors} onChange={setAddress} />
        <FormMessage status="error">{make.isError ? getErrorMessage(make.error) : null}</FormMessage>
      </FormDialog>
    </>
  );
}

/**
 * One offer request (`/customers/offer?id=…`, issue 30): the request; the next version's draft, priced
 * by the server, with its changes against the sent version and Send (approve permission); the sent
 * versions and their diffs; the customer's answer with its evidence; and the history.
 */
export default function OfferPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const validId = id && isUuid(id) ? id : null;
  const detail = useOfferDetail(validId);
  const { can } = useRouteActions(OFFER_PAGE);

  if (!validId)
    return (
      <FullPageMessage title="No offer chosen" description="Open an offer from the offer requests list." />
    );
  if (detail.isPending) return <LoadingState rows={6} label="Loading the offer" />;
  if (detail.isError)
    return <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const offer = detail.data;
  const accepted = offer.status === 'accepted';

  return (
    <>
      <PageHeader
        title={`${offerReference(offer.number)}: ${offer.customerName}`}
        description={`Offer request from ${offer.customerName} <${offer.email}>`}
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <span data-testid="offer-status">
          <OfferStatusBadge status={offer.status} />
        </span>
        {offer.currentVersion ? <Badge variant="outline">Version {offer.currentVersion} sent</Badge> : null}
        {offer.expiresAt ? (
          // The day the offer was written for, to its end in the shop's time zone (not "Ends …, 00:00").
          <Badge variant="outline" title={`Ends ${formatDateTime(offer.expiresAt)} (your time)`}>
            {offer.lastSent
              ? `Valid until ${formatDay(offer.lastSent.validUntil)} (end of day)`
              : `Ends ${formatDateTime(offer.expiresAt)}`}
          </Badge>
        ) : null}
        {offer.toConvert ? (
          <Badge colorPalette="green" variant="outline">
            To convert into an order
          </Badge>
        ) : null}
        {accepted ? <OrderLink offer={offer} /> : null}
      </HStack>
      <Grid
        templateColumns={{ base: '1fr', xl: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          {accepted ? null : (
            <SectionCard title={`Draft of version ${offer.currentVersion + 1}`} tour="offer-editor">
              <DraftSection key={offer.id} offer={offer} canEdit={can('edit')} />
            </SectionCard>
          )}
          {offer.lastSent ? (
            <SectionCard title={`Sent version ${offer.currentVersion}`}>
              <PricingTable pricing={offer.lastSent} caption={`Version ${offer.currentVersion}`} />
            </SectionCard>
          ) : null}
          <SectionCard title="Versions" tour="offer-versions">
            <OfferVersions offer={offer} />
          </SectionCard>
        </Stack>
        <Stack gap="4">
          <SectionCard title="Request">
            <Request offer={offer} />
          </SectionCard>
          <SectionCard title="Customer’s answer" tour="offer-evidence">
            <OfferEvidence responses={offer.responses} />
          </SectionCard>
          <SectionCard title="History">
            <OfferHistory history={offer.history} />
          </SectionCard>
        </Stack>
      </Grid>
    </>
  );
}
