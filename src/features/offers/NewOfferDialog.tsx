import { Field, HStack, IconButton, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type CreateOfferBody, createOfferBodySchema } from '../../../contracts/offers';
import { getErrorMessage } from '../../services/http';
import { SellerChooser } from '../../ui/choosers';
import { CustomerContactFields, useCreateForm } from '../../ui/create-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { ProductPicker } from '../../ui/product-picker';
import { useCreateOffer } from './api';

const FIELDS = ['customerName', 'email', 'phone', 'sellerId', 'items', 'message', 'shippingAddress'] as const;
type FieldName = (typeof FIELDS)[number];

interface Item {
  key: number;
  productId: string;
  label: string;
  quantity: string;
}

interface Form {
  customerName: string;
  email: string;
  phone: string;
  sellerId: string;
  country: string;
  message: string;
  items: Item[];
}

const emptyForm: Form = {
  customerName: '',
  email: '',
  phone: '',
  sellerId: '',
  country: '',
  message: '',
  items: [],
};

/** An offer request entered on a customer's behalf: who, which products in which quantities, and why. */
export function NewOfferDialog({
  open,
  chooseSeller,
  onClose,
  onCreated,
}: {
  open: boolean;
  chooseSeller: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [nextKey, setNextKey] = useState(1);
  const create = useCreateOffer();
  const { form, set, errors, setErrors, close, send } = useCreateForm<
    Form,
    FieldName,
    CreateOfferBody,
    { id: string }
  >({
    empty: emptyForm,
    create,
    onClose,
    onCreated,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const country = form.country.trim().toUpperCase();
    const body = {
      customerName: form.customerName,
      email: form.email,
      phone: form.phone,
      sellerId: chooseSeller ? form.sellerId || undefined : undefined,
      items: form.items.map((item) => ({ productId: item.productId, quantity: Number(item.quantity) })),
      message: form.message,
      shippingAddress: country
        ? {
            fullName: form.customerName,
            email: form.email,
            addressLine1: '',
            addressLine2: '',
            city: '',
            state: '',
            country,
            zipcode: '',
          }
        : null,
    };
    const problems: Partial<Record<FieldName, string>> = {};
    if (chooseSeller && !form.sellerId) problems.sellerId = 'Choose a seller from the list.';
    if (country && !/^[A-Z]{2}$/.test(country))
      problems.shippingAddress = 'A country is a two-letter code, e.g. DE.';
    const checked = createOfferBodySchema.safeParse(body);
    if (!checked.success) Object.assign(problems, fieldErrors(checked.error.issues, FIELDS), problems);
    if (Object.keys(problems).length) {
      setErrors(problems);
      return;
    }
    send(checked.data as CreateOfferBody);
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title="New offer request"
      submitLabel="Record request"
      pending={create.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <CustomerContactFields value={form} errors={errors} onChange={set} />
        <Field.Root invalid={Boolean(errors.shippingAddress)}>
          <Field.Label>Shipping country (optional)</Field.Label>
          <Input
            name="country"
            maxLength={2}
            placeholder="DE"
            value={form.country}
            onChange={(event) => set({ country: event.target.value })}
          />
          <Field.HelperText>Two letters; it picks the taxes and the shipping zone.</Field.HelperText>
          <Field.ErrorText>{errors.shippingAddress}</Field.ErrorText>
        </Field.Root>
        {chooseSeller ? (
          <Field.Root invalid={Boolean(errors.sellerId)} required>
            <Field.Label htmlFor="new-offer-seller">
              Seller <Field.RequiredIndicator />
            </Field.Label>
            <SellerChooser
              id="new-offer-seller"
              label="Seller"
              blank="Choose a seller"
              value={form.sellerId}
              onChange={(sellerId) => set({ sellerId, items: [] })}
            />
            <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
          </Field.Root>
        ) : null}
      </SimpleGrid>
      <Stack gap="2">
        <Text fontWeight="medium">Products</Text>
        {form.items.length ? (
          <Stack as="ul" gap="1" listStyleType="none" aria-label="Requested products">
            {form.items.map((item) => (
              <HStack as="li" key={item.key} justify="space-between">
                <Text overflowWrap="anywhere">
                  {item.quantity} × {item.label}
                </Text>
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={`Remove ${item.label}`}
                  onClick={() => set({ items: form.items.filter((other) => other.key !== item.key) })}
                >
                  <Trash2 />
                </IconButton>
              </HStack>
            ))}
          </Stack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            No products yet: the seller can also price lines of their own.
          </Text>
        )}
        {errors.items ? (
          <Text fontSize="sm" color="fg.error">
            {errors.items}
          </Text>
        ) : null}
        {!chooseSeller || form.sellerId ? (
          <ProductPicker
            key={form.sellerId}
            sellerId={chooseSeller ? form.sellerId : null}
            idPrefix="new-offer"
            onAdd={(item) => {
              set({ items: [...form.items, { ...item, key: nextKey }] });
              setNextKey(nextKey + 1);
            }}
          />
        ) : null}
      </Stack>
      <Field.Root invalid={Boolean(errors.message)}>
        <Field.Label>Message</Field.Label>
        <Textarea
          name="message"
          rows={4}
          maxLength={20_000}
          value={form.message}
          onChange={(event) => set({ message: event.target.value })}
        />
        <Field.ErrorText>{errors.message}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}
