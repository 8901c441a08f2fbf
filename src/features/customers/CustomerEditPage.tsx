import {
  Badge,
  Button,
  Card,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { type Customer, updateCustomerBodySchema } from '../../../contracts/customers';
import { formatDate } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import type { Address } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { PageHeader, recordState } from '../../ui/page-states';
import { useCustomer, useUpdateCustomer } from './api';

const LIST_PAGE = '/sellers/list-of-customers';
const EDIT_PAGE = '/sellers/seller-customers/customer-edit';

const addressFields: { name: keyof Address; label: string; max: number; autoComplete: string }[] = [
  { name: 'fullName', label: 'Full name', max: 200, autoComplete: 'off' },
  { name: 'email', label: 'Contact e-mail', max: 254, autoComplete: 'off' },
  { name: 'addressLine1', label: 'Address line 1', max: 200, autoComplete: 'off' },
  { name: 'addressLine2', label: 'Address line 2', max: 200, autoComplete: 'off' },
  { name: 'city', label: 'City', max: 100, autoComplete: 'off' },
  { name: 'state', label: 'State', max: 100, autoComplete: 'off' },
  { name: 'zipcode', label: 'PIN / ZIP code', max: 20, autoComplete: 'off' },
  { name: 'country', label: 'Country', max: 100, autoComplete: 'off' },
];
const blankAddress: Address = {
  fullName: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  country: '',
  zipcode: '',
};

interface Draft {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  isActive: boolean;
  address: Address;
}

const draftOf = (customer: Customer): Draft => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  email: customer.email,
  phone: customer.phone,
  isActive: customer.isActive,
  address: customer.address ?? blankAddress,
});

function TextInput({
  label,
  name,
  value,
  onChange,
  error,
  max,
  required = false,
  readOnly,
  type = 'text',
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  max: number;
  required?: boolean;
  readOnly: boolean;
  type?: 'text' | 'email' | 'tel';
}) {
  return (
    <Field.Root invalid={!!error} required={required} readOnly={readOnly}>
      <Field.Label>
        {label}
        {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        name={name}
        type={type}
        maxLength={max}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

function CustomerForm({ customer, canEdit }: { customer: Customer; canEdit: boolean }) {
  const save = useUpdateCustomer(customer.id);
  const [draft, setDraft] = useState(() => draftOf(customer));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setAddress = (key: keyof Address, value: string) =>
    setDraft((d) => ({ ...d, address: { ...d.address, [key]: value } }));
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(customer));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An address with nothing in it is no address at all.
    const hasAddress = Object.values(draft.address).some((value) => value.trim() !== '');
    const parsed = updateCustomerBodySchema.safeParse({
      ...draft,
      address: hasAddress ? draft.address : null,
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[issue.path.join('.')] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        setDraft(draftOf(saved));
        notify({ type: 'success', title: 'Customer saved', description: `${saved.name} is up to date.` });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Customer details" data-tour="customer-form">
      <Stack gap="6">
        <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
        <Card.Root>
          <Card.Header>
            <Heading size="md">Customer</Heading>
          </Card.Header>
          <Card.Body>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <TextInput
                label="First name"
                name="firstName"
                required
                max={100}
                readOnly={!canEdit}
                value={draft.firstName}
                error={errors.firstName}
                onChange={(v) => set('firstName', v)}
              />
              <TextInput
                label="Last name"
                name="lastName"
                max={100}
                readOnly={!canEdit}
                value={draft.lastName}
                error={errors.lastName}
                onChange={(v) => set('lastName', v)}
              />
              <TextInput
                label="E-mail"
                name="email"
                type="email"
                required
                max={254}
                readOnly={!canEdit}
                value={draft.email}
                error={errors.email}
                onChange={(v) => set('email', v)}
              />
              <TextInput
                label="Phone"
                name="phone"
                type="tel"
                max={30}
                readOnly={!canEdit}
                value={draft.phone}
                error={errors.phone}
                onChange={(v) => set('phone', v)}
              />
            </SimpleGrid>
            <Switch.Root
              mt="5"
              colorPalette="brand"
              checked={draft.isActive}
              disabled={!canEdit}
              onCheckedChange={(e) => set('isActive', e.checked)}
            >
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>Active: the customer can sign in and order</Switch.Label>
            </Switch.Root>
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Header>
            <Heading size="md">Address</Heading>
            <Text color="fg.muted" fontSize="sm">
              Leave every field empty to remove the address.
            </Text>
          </Card.Header>
          <Card.Body>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {addressFields.map((field) => (
                <TextInput
                  key={field.name}
                  label={field.label}
                  name={`address.${field.name}`}
                  max={field.max}
                  readOnly={!canEdit}
                  value={draft.address[field.name]}
                  error={errors[`address.${field.name}`]}
                  onChange={(v) => setAddress(field.name, v)}
                />
              ))}
            </SimpleGrid>
          </Card.Body>
        </Card.Root>
        {canEdit ? (
          <Flex gap="2" justify="flex-end">
            <Button
              variant="outline"
              disabled={!dirty || save.isPending}
              onClick={() => {
                setDraft(draftOf(customer));
                setErrors({});
                save.reset();
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" colorPalette="brand" disabled={!dirty} loading={save.isPending}>
              Save customer
            </Button>
          </Flex>
        ) : null}
      </Stack>
    </form>
  );
}

/** One customer's details; admins edit them (the server keeps sellers to their own customers). */
export default function CustomerEditPage() {
  const customerId = new URLSearchParams(useSearch()).get('customerId');
  const valid = isUuid(customerId);
  const customer = useCustomer(valid ? customerId : null);
  const { can } = useRouteActions(EDIT_PAGE);
  const back = (
    <Button asChild variant="outline">
      <RouterLink href={LIST_PAGE}>Back to customers</RouterLink>
    </Button>
  );

  const { data, view } = recordState(customer, {
    valid,
    back,
    noneChosen: {
      title: 'No customer chosen',
      description: 'This address does not name a customer. Open one from the customer list.',
    },
    notFound: {
      title: 'Customer not found',
      description: 'There is no such customer, or it is not one you may see.',
    },
    loading: { rows: 8, label: 'Loading customer' },
  });
  if (!data) return view;
  return (
    <>
      <PageHeader
        title={can('edit') ? `Edit ${data.name}` : data.name}
        description={`Customer since ${formatDate(data.createdAt)}`}
        actions={
          <HStack gap="3">
            <Badge colorPalette={data.sellerName ? 'purple' : 'gray'} size="lg">
              {data.sellerName ? `Store: ${data.sellerName}` : 'Marketplace customer'}
            </Badge>
            {back}
          </HStack>
        }
      />
      <CustomerForm key={data.id} customer={data} canEdit={can('edit')} />
    </>
  );
}
