// The suppliers the purchase orders go to (issue 31), managed from the purchase-order list: name, the
// e-mail the PDFs are mailed to, phone, tax id, currency and the receiving tolerance of their deliveries.
// A supplier is made inactive rather than deleted, so its purchase orders keep it.
import {
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Dialog,
  Field,
  HStack,
  Input,
  Portal,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { Pencil, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { plural } from '../../../contracts/domain/format';
import { type Tolerance, toleranceText } from '../../../contracts/domain/purchase-order-state';
import { type Supplier, supplierBodySchema } from '../../../contracts/purchase-orders';
import { useClientSettings } from '../../services/client-settings';
import { getErrorMessage } from '../../services/http';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { OptionSelect } from '../../ui/option-select';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { TableScroll } from '../../ui/table-scroll';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useSaveSupplier, useSupplierList } from './api';
import { toleranceInputOf, toleranceOf } from './tolerance';

const FIELDS = ['name', 'email', 'phone', 'taxId', 'currency', 'tolerance'] as const;
type FieldName = (typeof FIELDS)[number];

const toleranceKinds = [
  { value: 'percent', label: 'Percent of what was ordered' },
  { value: 'units', label: 'Units' },
];

/** Adds a supplier (`supplier` null) or changes one; back to the list when saved or left. */
function SupplierForm({ supplier, onDone }: { supplier: Supplier | null; onDone: () => void }) {
  const settings = useClientSettings().data;
  const save = useSaveSupplier();
  const [form, setForm] = useState(() => ({
    name: supplier?.name ?? '',
    email: supplier?.email ?? '',
    phone: supplier?.phone ?? '',
    taxId: supplier?.taxId ?? '',
    currency: supplier?.currency ?? '',
    toleranceKind: (supplier?.tolerance.kind ?? 'percent') as Tolerance['kind'],
    tolerance: supplier ? toleranceInputOf(supplier.tolerance) : '0',
    active: supplier?.active ?? true,
  }));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const currency = form.currency || settings?.defaultCurrency || '';
  const currencies = [...new Set([...(settings?.currencies ?? []), ...(currency ? [currency] : [])])];
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const id = (name: string) => `supplier-${name}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const tolerance = toleranceOf(form.toleranceKind, form.tolerance);
    const checked = supplierBodySchema.safeParse({
      name: form.name,
      email: form.email.trim(),
      phone: form.phone,
      // The form does not ask for the address: a change keeps the one the supplier has.
      address: supplier?.address ?? null,
      taxId: form.taxId,
      currency,
      tolerance: typeof tolerance === 'string' ? undefined : tolerance,
      active: form.active,
    });
    const problems: Partial<Record<FieldName, string>> = checked.success
      ? {}
      : fieldErrors(checked.error.issues, FIELDS);
    if (typeof tolerance === 'string') problems.tolerance = tolerance;
    setErrors(problems);
    if (!checked.success || Object.keys(problems).length) return;
    save.mutate(
      { id: supplier?.id ?? null, body: checked.data },
      {
        onSuccess: (saved) => {
          notify({ type: 'success', title: supplier ? `${saved.name} saved.` : `${saved.name} added.` });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={supplier ? `Edit ${supplier.name}` : 'Add a supplier'}>
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          <Field.Root required invalid={Boolean(errors.name)}>
            <Field.Label htmlFor={id('name')}>
              Name <Field.RequiredIndicator />
            </Field.Label>
            <Input
              id={id('name')}
              maxLength={200}
              value={form.name}
              onChange={(event) => set({ name: event.target.value })}
            />
            <Field.ErrorText>{errors.name}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={Boolean(errors.email)}>
            <Field.Label htmlFor={id('email')}>
              E-mail <Field.RequiredIndicator />
            </Field.Label>
            <Input
              id={id('email')}
              type="email"
              maxLength={320}
              value={form.email}
              onChange={(event) => set({ email: event.target.value })}
            />
            <Field.HelperText>Purchase orders are mailed here.</Field.HelperText>
            <Field.ErrorText>{errors.email}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={Boolean(errors.phone)}>
            <Field.Label htmlFor={id('phone')}>Phone</Field.Label>
            <Input
              id={id('phone')}
              type="tel"
              maxLength={40}
              value={form.phone}
              onChange={(event) => set({ phone: event.target.value })}
            />
            <Field.ErrorText>{errors.phone}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={Boolean(errors.taxId)}>
            <Field.Label htmlFor={id('tax-id')}>Tax id</Field.Label>
            <Input
              id={id('tax-id')}
              maxLength={30}
              value={form.taxId}
              onChange={(event) => set({ taxId: event.target.value })}
            />
            <Field.ErrorText>{errors.taxId}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={Boolean(errors.currency)}>
            <Field.Label htmlFor={id('currency')}>
              Currency <Field.RequiredIndicator />
            </Field.Label>
            <OptionSelect
              id={id('currency')}
              blank={currency ? undefined : 'Choose a currency'}
              value={currency}
              options={currencies.map((code) => ({ value: code, label: code }))}
              onChange={(value) => set({ currency: value })}
            />
            <Field.HelperText>New purchase orders to it start in this currency.</Field.HelperText>
            <Field.ErrorText>{errors.currency}</Field.ErrorText>
          </Field.Root>
          <Field.Root required>
            <Field.Label htmlFor={id('tolerance-kind')}>Tolerance in</Field.Label>
            <OptionSelect
              id={id('tolerance-kind')}
              value={form.toleranceKind}
              options={toleranceKinds}
              onChange={(value) => set({ toleranceKind: value as Tolerance['kind'] })}
            />
          </Field.Root>
          <Field.Root required invalid={Boolean(errors.tolerance)}>
            <Field.Label htmlFor={id('tolerance')}>
              {form.toleranceKind === 'percent' ? 'Tolerance (%)' : 'Tolerance (units)'}{' '}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input
              id={id('tolerance')}
              inputMode={form.toleranceKind === 'percent' ? 'decimal' : 'numeric'}
              maxLength={10}
              value={form.tolerance}
              onChange={(event) => set({ tolerance: event.target.value })}
            />
            <Field.HelperText>
              A line counts as received this much under what was ordered; more than this much over it needs a
              confirmation.
            </Field.HelperText>
            <Field.ErrorText>{errors.tolerance}</Field.ErrorText>
          </Field.Root>
        </SimpleGrid>
        <Checkbox.Root
          checked={form.active}
          onCheckedChange={(details) => set({ active: details.checked === true })}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Active: new purchase orders may go to it</Checkbox.Label>
        </Checkbox.Root>
        <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
        <HStack justify="end" gap="2">
          <Button variant="outline" onClick={onDone} disabled={save.isPending}>
            Back to the suppliers
          </Button>
          <Button type="submit" colorPalette="brand" loading={save.isPending}>
            {supplier ? 'Save supplier' : 'Add supplier'}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

function SupplierRows({
  suppliers,
  onEdit,
}: {
  suppliers: Supplier[];
  onEdit: (supplier: Supplier) => void;
}) {
  return (
    <TableScroll label="Suppliers">
      <Table.Root size="sm" aria-label="Suppliers">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>E-mail</Table.ColumnHeader>
            <Table.ColumnHeader>Currency</Table.ColumnHeader>
            <Table.ColumnHeader>Tolerance</Table.ColumnHeader>
            <Table.ColumnHeader>State</Table.ColumnHeader>
            <Table.ColumnHeader>
              <Text srOnly>Edit</Text>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {suppliers.map((supplier) => (
            <Table.Row key={supplier.id}>
              <Table.Cell overflowWrap="anywhere">{supplier.name}</Table.Cell>
              <Table.Cell overflowWrap="anywhere">{supplier.email}</Table.Cell>
              <Table.Cell>{supplier.currency}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{toleranceText(supplier.tolerance)}</Table.Cell>
              <Table.Cell>
                <Badge variant="subtle" colorPalette={supplier.active ? 'green' : 'gray'}>
                  {supplier.active ? 'Active' : 'Inactive'}
                </Badge>
              </Table.Cell>
              <Table.Cell textAlign="end">
                <Button
                  size="xs"
                  variant="ghost"
                  aria-label={`Edit ${supplier.name}`}
                  onClick={() => onEdit(supplier)}
                >
                  <Pencil /> Edit
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

/** The supplier list with its add and edit forms, in one dialog. */
export function SuppliersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [editing, setEditing] = useState<Supplier | 'new' | null>(null);
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const list = useSupplierList({ query: searched, limit: 100 }, open);
  const rows = list.data?.result ?? [];
  const total = list.data?.total ?? 0;
  const title =
    editing === null ? 'Suppliers' : editing === 'new' ? 'Add a supplier' : `Edit ${editing.name}`;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => !event.open && onClose()}
      size="xl"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {editing !== null ? (
                <SupplierForm
                  key={editing === 'new' ? 'new' : editing.id}
                  supplier={editing === 'new' ? null : editing}
                  onDone={() => setEditing(null)}
                />
              ) : (
                <Stack gap="3">
                  <HStack gap="2" wrap="wrap">
                    <Input
                      size="sm"
                      type="search"
                      flex="1"
                      minW="48"
                      aria-label="Search suppliers"
                      placeholder="Find a supplier by name"
                      value={text}
                      onChange={(event) => setText(event.target.value)}
                    />
                    <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')}>
                      <Plus /> Add supplier
                    </Button>
                  </HStack>
                  {list.isPending ? (
                    <LoadingState rows={3} label="Loading the suppliers" />
                  ) : list.isError ? (
                    <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
                  ) : rows.length === 0 ? (
                    <Text color="fg.muted">{searched ? 'No supplier matches.' : 'No suppliers yet.'}</Text>
                  ) : (
                    <>
                      <SupplierRows suppliers={rows} onEdit={setEditing} />
                      <Text fontSize="sm" color="fg.muted">
                        {rows.length < total
                          ? `The first ${rows.length} of ${plural(total, 'supplier')}: search to find the others.`
                          : plural(total, 'supplier')}
                      </Text>
                    </>
                  )}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
