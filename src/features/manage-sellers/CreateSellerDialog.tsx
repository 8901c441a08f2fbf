import { Alert, Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import type { Seller } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { useCreateSeller } from './api';
import { SellerFormFields } from './SellerFormFields';
import { emptySellerForm, parseCreate, type SellerFormErrors } from './seller-form';

/** A new seller starts in Pending Verification; the dialog hands the created seller back to open it. */
export function CreateSellerDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (seller: Seller) => void;
}) {
  const create = useCreateSeller();
  const [values, setValues] = useState(emptySellerForm);
  const [errors, setErrors] = useState<SellerFormErrors>({});

  const close = () => {
    if (create.isPending) return;
    setValues(emptySellerForm);
    setErrors({});
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseCreate(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    create.mutate(parsed.body, {
      onSuccess: (seller) => {
        notify({
          type: 'success',
          title: 'Seller created',
          description: `${seller.sellerName} (${seller.sellerCode})`,
        });
        setValues(emptySellerForm);
        create.reset();
        onCreated(seller);
      },
    });
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => !event.open && close()}
      size="lg"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild>
            <form onSubmit={submit} noValidate aria-label="New seller">
              <Dialog.Header>
                <Dialog.Title>New seller</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted" fontSize="sm">
                    The seller starts in Pending Verification until their e-mail is verified.
                  </Text>
                  {create.isError ? (
                    <Alert.Root status="error" role="alert">
                      <Alert.Indicator />
                      <Alert.Title>{getErrorMessage(create.error)}</Alert.Title>
                    </Alert.Root>
                  ) : null}
                  <SellerFormFields values={values} errors={errors} onChange={setValues} codeOptional />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close} disabled={create.isPending}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="brand" loading={create.isPending}>
                  Create seller
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
