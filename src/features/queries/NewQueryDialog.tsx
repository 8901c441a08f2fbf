import { Field, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { type QueryPriority, queryPriorities } from '../../../contracts/domain/query-status';
import { type CreateQueryBody, createQueryBodySchema } from '../../../contracts/queries';
import { useProductChoices } from '../../services/choices';
import { getErrorMessage } from '../../services/http';
import { SellerChooser } from '../../ui/choosers';
import { CustomerContactFields, useCreateForm } from '../../ui/create-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useCreateQuery } from './api';
import { channelLabels, priorityLabels } from './labels';

const FIELDS = ['customerName', 'email', 'phone', 'sellerId', 'productId', 'subject', 'message'] as const;
type FieldName = (typeof FIELDS)[number];
type Channel = 'manual' | 'call' | 'email';

interface Form {
  customerName: string;
  email: string;
  phone: string;
  sellerId: string;
  productId: string;
  subject: string;
  message: string;
  priority: QueryPriority;
  channel: Channel;
}

const emptyForm: Form = {
  customerName: '',
  email: '',
  phone: '',
  sellerId: '',
  productId: '',
  subject: '',
  message: '',
  priority: 'normal',
  channel: 'manual',
};

function ProductChooser({
  sellerId,
  value,
  onChange,
}: {
  sellerId: string | null;
  value: string;
  onChange: (productId: string) => void;
}) {
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const options = useProductChoices(sellerId, searched, true);
  return (
    <Field.Root>
      <Field.Label htmlFor="new-query-product">Product (optional)</Field.Label>
      <Stack gap="1" w="full">
        <Input
          size="sm"
          aria-label="Product: find by title or SKU"
          placeholder="Find a product by title or SKU"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <OptionSelect
          size="sm"
          id="new-query-product"
          blank="No product"
          value={value}
          options={options.data ?? []}
          onChange={onChange}
        />
      </Stack>
    </Field.Root>
  );
}

/** A query entered by hand (a call, an e-mail, a walk-in): admins and staff choose the seller. */
export function NewQueryDialog({
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
  const create = useCreateQuery();
  const { form, set, errors, setErrors, close, send } = useCreateForm<
    Form,
    FieldName,
    CreateQueryBody,
    { id: string }
  >({
    empty: emptyForm,
    create,
    onClose,
    onCreated,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateQueryBody = {
      ...form,
      sellerId: chooseSeller ? form.sellerId || null : undefined,
      productId: form.productId || null,
    };
    const checked = createQueryBodySchema.safeParse(body);
    if (checked.success) send(checked.data);
    else setErrors(fieldErrors(checked.error.issues, FIELDS));
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title="New query"
      submitLabel="Add query"
      pending={create.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <CustomerContactFields value={form} errors={errors} onChange={set} />
        {chooseSeller ? (
          <Field.Root invalid={Boolean(errors.sellerId)}>
            <Field.Label htmlFor="new-query-seller">Seller</Field.Label>
            <SellerChooser
              id="new-query-seller"
              label="Seller"
              blank="The marketplace itself"
              value={form.sellerId}
              onChange={(sellerId) => set({ sellerId, productId: '' })}
            />
            <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
          </Field.Root>
        ) : null}
      </SimpleGrid>
      <ProductChooser
        key={form.sellerId}
        sellerId={chooseSeller ? form.sellerId || null : null}
        value={form.productId}
        onChange={(productId) => set({ productId })}
      />
      <Field.Root invalid={Boolean(errors.subject)} required>
        <Field.Label>
          Subject <Field.RequiredIndicator />
        </Field.Label>
        <Input
          name="subject"
          value={form.subject}
          onChange={(event) => set({ subject: event.target.value })}
        />
        <Field.ErrorText>{errors.subject}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={Boolean(errors.message)} required>
        <Field.Label>
          Message <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          name="message"
          rows={5}
          maxLength={20_000}
          value={form.message}
          onChange={(event) => set({ message: event.target.value })}
        />
        <Field.ErrorText>{errors.message}</Field.ErrorText>
      </Field.Root>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root>
          <Field.Label htmlFor="new-query-channel">Channel</Field.Label>
          <OptionSelect
            id="new-query-channel"
            value={form.channel}
            options={(['manual', 'call', 'email'] as const).map((value) => ({
              value,
              label: channelLabels[value],
            }))}
            onChange={(channel) => set({ channel: channel as Channel })}
          />
        </Field.Root>
        <Field.Root>
          <Field.Label htmlFor="new-query-priority">Priority</Field.Label>
          <OptionSelect
            id="new-query-priority"
            value={form.priority}
            options={queryPriorities.map((value) => ({ value, label: priorityLabels[value] }))}
            onChange={(priority) => set({ priority: priority as QueryPriority })}
          />
        </Field.Root>
      </SimpleGrid>
    </FormDialog>
  );
}
