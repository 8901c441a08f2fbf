import { Alert, Button, DataList, HStack, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { formatDateTime } from '../../../contracts/domain/format';
import type { Seller } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { useUpdateSeller } from './api';
import { formatValue } from './history-format';
import { SellerFormFields } from './SellerFormFields';
import { formFromSeller, parseUpdate, type SellerFormErrors } from './seller-form';

function ProfileFacts({ seller }: { seller: Seller }) {
  const facts: [string, string][] = [
    ['Seller name', seller.sellerName],
    ['E-mail', seller.email],
    ['Phone', seller.phone || '—'],
    ['Seller code', seller.sellerCode],
    ['Address', formatValue(seller.address)],
    ['Created', formatDateTime(seller.createdAt)],
  ];
  return (
    <DataList.Root orientation="horizontal">
      {facts.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

/**
 * The seller's profile: an edit form for those who may edit, the facts for everyone else. The parent
 * keys it by the profile fields, so a saved or outside edit starts the form afresh.
 */
export function SellerProfileForm({ seller, canEdit }: { seller: Seller; canEdit: boolean }) {
  const update = useUpdateSeller();
  const [values, setValues] = useState(() => formFromSeller(seller));
  const [errors, setErrors] = useState<SellerFormErrors>({});
  if (!canEdit) return <ProfileFacts seller={seller} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseUpdate(values, seller);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    update.mutate(
      { id: seller.id, body: parsed.body },
      { onSuccess: () => notify({ type: 'success', title: 'Seller saved' }) },
    );
  };

  const message = errors.form ?? (update.isError ? getErrorMessage(update.error) : null);
  return (
    <Stack asChild gap="4">
      <form onSubmit={submit} noValidate aria-label="Seller profile">
        {message ? (
          <Alert.Root status={errors.form ? 'info' : 'error'} role="alert">
            <Alert.Indicator />
            <Alert.Title>{message}</Alert.Title>
          </Alert.Root>
        ) : null}
        <SellerFormFields
          values={values}
          errors={errors}
          onChange={(next) => {
            setValues(next);
            if (errors.form) setErrors({});
          }}
          codeOptional={false}
          disabled={update.isPending}
        />
        <HStack justify="flex-end" gap="2">
          <Button
            variant="outline"
            disabled={update.isPending}
            onClick={() => {
              setValues(formFromSeller(seller));
              setErrors({});
              update.reset();
            }}
          >
            Discard changes
          </Button>
          <Button type="submit" colorPalette="brand" loading={update.isPending}>
            Save changes
          </Button>
        </HStack>
      </form>
    </Stack>
  );
}
