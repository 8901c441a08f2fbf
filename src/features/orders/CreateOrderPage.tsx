import {
  Button,
  Card,
  Checkbox,
  Field,
  Heading,
  HStack,
  SimpleGrid,
  Stack,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import {
  type CreateOrderBody,
  createOrderBodySchema,
  ORDERS_ROUTE,
  orderPageLink,
} from '../../../contracts/orders';
import { useClientSettings } from '../../services/client-settings';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { AddressFields, type AddressForm, emptyAddress } from '../../ui/address-fields';
import { SellerChooser } from '../../ui/choosers';
import { CustomerContactFields } from '../../ui/create-dialog';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { PageHeader } from '../../ui/page-states';
import { useCreateOrder } from './api';
import { type LineForm, linesBody, OrderLinesEditor } from './OrderLinesEditor';

type Errors = Partial<Record<string, string>>;

/** zod issues as messages by path: 'email', 'shippingAddress.city', 'lines'. */
function messagesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const out: Errors = {};
  for (const issue of issues) {
    const key = issue.path.slice(0, 2).map(String).join('.');
    out[key] ??= issue.message;
  }
  return out;
}

const addressErrors = (errors: Errors, prefix: string) =>
  Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith(`${prefix}.`))
      .map(([key, message]) => [key.slice(prefix.length + 1), message]),
  );

/**
 * New order (`/orders/create-new-order`, issue 31): the customer, where the goods go (and where the bill
 * goes when that differs), the currency and the products. The server prices it (taxes of the shipping
 * country, shipping by chargeable weight) and reserves its stock; not enough stock refuses it in words.
 */
export default function CreateOrderPage() {
  const user = useCurrentUser();
  const chooseSeller = !(user.data?.isSeller ?? true);
  const settings = useClientSettings().data;
  const [, navigate] = useLocation();
  const create = useCreateOrder();
  const [sellerId, setSellerId] = useState('');
  const [contact, setContact] = useState({ customerName: '', email: '', phone: '' });
  const [shipping, setShipping] = useState<AddressForm>(emptyAddress);
  const [sameBilling, setSameBilling] = useState(true);
  const [billing, setBilling] = useState<AddressForm>(emptyAddress);
  const [currency, setCurrency] = useState('');
  const [lines, setLines] = useState<LineForm[]>([]);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const chosenCurrency = currency || settings?.defaultCurrency || '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Errors = {};
    if (chooseSeller && !sellerId) problems.sellerId = 'Choose a seller from the list.';
    const body = linesBody(lines);
    if (typeof body === 'string') problems.lines = body;
    const fill = (address: AddressForm) => ({
      ...address,
      fullName: address.fullName || contact.customerName,
      email: address.email || contact.email,
    });
    const checked = createOrderBodySchema.safeParse({
      ...contact,
      sellerId: chooseSeller ? sellerId || undefined : undefined,
      shippingAddress: fill(shipping),
      billingAddress: sameBilling ? undefined : fill(billing),
      currency: chosenCurrency,
      lines: typeof body === 'string' ? [] : body,
      notes,
    });
    if (!checked.success) Object.assign(problems, { ...messagesOf(checked.error.issues), ...problems });
    if (typeof body === 'string') problems.lines = body;
    setErrors(problems);
    if (Object.keys(problems).length || !checked.success) return;
    create.mutate(checked.data as CreateOrderBody, {
      onSuccess: (order) => navigate(orderPageLink(order.id)),
    });
  };

  return (
    <>
      <PageHeader
        title="New order"
        description="Place an order on a customer's behalf: the server prices it, taxes it for the shipping country and reserves its stock."
      />
      <form onSubmit={submit} noValidate aria-label="New order">
        <Stack gap="4" maxW="5xl">
          <Card.Root size="sm">
            <Card.Header>
              <Heading as="h2" size="sm">
                Customer
              </Heading>
            </Card.Header>
            <Card.Body>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                <CustomerContactFields
                  value={contact}
                  errors={errors}
                  onChange={(patch) => setContact((current) => ({ ...current, ...patch }))}
                />
                {chooseSeller ? (
                  <Field.Root required invalid={Boolean(errors.sellerId)}>
                    <Field.Label htmlFor="new-order-seller">
                      Seller <Field.RequiredIndicator />
                    </Field.Label>
                    <SellerChooser
                      id="new-order-seller"
                      label="Seller"
                      blank="Choose a seller"
                      value={sellerId}
                      onChange={(next) => {
                        setSellerId(next);
                        setLines([]);
                      }}
                    />
                    <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
                  </Field.Root>
                ) : null}
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
          <Card.Root size="sm">
            <Card.Header>
              <Heading as="h2" size="sm">
                Shipping address
              </Heading>
            </Card.Header>
            <Card.Body>
              <Stack gap="3">
                <AddressFields
                  idPrefix="shipping"
                  value={shipping}
                  errors={addressErrors(errors, 'shippingAddress')}
                  onChange={setShipping}
                />
                <Checkbox.Root
                  checked={sameBilling}
                  onCheckedChange={(details) => setSameBilling(details.checked === true)}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>Bill to the shipping address</Checkbox.Label>
                </Checkbox.Root>
              </Stack>
            </Card.Body>
          </Card.Root>
          {sameBilling ? null : (
            <Card.Root size="sm">
              <Card.Header>
                <Heading as="h2" size="sm">
                  Billing address
                </Heading>
              </Card.Header>
              <Card.Body>
                <AddressFields
                  idPrefix="billing"
                  value={billing}
                  errors={addressErrors(errors, 'billingAddress')}
                  onChange={setBilling}
                />
              </Card.Body>
            </Card.Root>
          )}
          <Card.Root size="sm">
            <Card.Header>
              <Heading as="h2" size="sm">
                Products
              </Heading>
            </Card.Header>
            <Card.Body>
              <Stack gap="3">
                <Field.Root width={{ base: 'full', md: '48' }} invalid={Boolean(errors.currency)}>
                  <Field.Label htmlFor="new-order-currency">Currency</Field.Label>
                  <OptionSelect
                    id="new-order-currency"
                    value={chosenCurrency}
                    options={(settings?.currencies ?? []).map((code) => ({ value: code, label: code }))}
                    onChange={setCurrency}
                  />
                  <Field.HelperText>The products must be priced in it.</Field.HelperText>
                  <Field.ErrorText>{errors.currency}</Field.ErrorText>
                </Field.Root>
                {!chooseSeller || sellerId ? (
                  <OrderLinesEditor
                    sellerId={chooseSeller ? sellerId : null}
                    lines={lines}
                    onChange={setLines}
                    idPrefix="new-order"
                  />
                ) : (
                  <FormMessage status="info">
                    Choose the seller first: an order holds one seller's products.
                  </FormMessage>
                )}
                <FormMessage status="error">{errors.lines ?? null}</FormMessage>
              </Stack>
            </Card.Body>
          </Card.Root>
          <Field.Root>
            <Field.Label htmlFor="new-order-notes">Notes</Field.Label>
            <Textarea
              id="new-order-notes"
              rows={3}
              maxLength={5000}
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
            />
          </Field.Root>
          <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
          <HStack justify="end" gap="2">
            <Button asChild variant="outline">
              <RouterLink href={ORDERS_ROUTE}>Cancel</RouterLink>
            </Button>
            <Button type="submit" colorPalette="brand" loading={create.isPending}>
              Place order
            </Button>
          </HStack>
        </Stack>
      </form>
    </>
  );
}
