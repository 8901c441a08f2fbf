import { Button, CloseButton, Drawer, HStack, Portal, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { fieldErrorsOf, useCategoryAttributes, useCreateProduct } from './api';
import { ProductFormFields } from './ProductFormFields';
import { emptyProductForm, type ProductFormState, toCreateBody } from './product-form';

/**
 * "Add product": a form generated from the chosen category's attributes, each data type with its own
 * input. The product is saved as a draft; server refusals show on the fields they concern.
 */
export default function AddProductDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? false;
  const [form, setForm] = useState<ProductFormState>(emptyProductForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const defs = useCategoryAttributes(form.categoryId || null);
  const create = useCreateProduct();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, errors: found } = toCreateBody(form, defs.data ?? [], isSeller);
    setErrors(found);
    setMessage(body ? null : 'Some fields need attention.');
    if (!body) return;
    create.mutate(body, {
      onSuccess: (product) => {
        notify({
          type: 'success',
          title: 'Product added as a draft.',
          description: `${product.title} (${product.sku}) · ${product.completeness}% complete`,
        });
        setForm(emptyProductForm);
        onClose();
      },
      onError: (failure) => {
        setErrors(fieldErrorsOf(failure));
        setMessage(getErrorMessage(failure));
      },
    });
  };

  return (
    <Drawer.Root
      open={open}
      onOpenChange={(event) => !event.open && !create.isPending && onClose()}
      size="xl"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content asChild>
            <form onSubmit={submit} noValidate aria-label="Add product">
              <Drawer.Header>
                <Drawer.Title>Add product</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>
                <ProductFormFields
                  form={form}
                  onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
                  defs={defs.data}
                  errors={errors}
                  chooseSeller={!isSeller}
                />
              </Drawer.Body>
              <Drawer.Footer flexDirection="column" alignItems="stretch" gap="2">
                <FormMessage status="error">{message}</FormMessage>
                <HStack justify="space-between">
                  <Text fontSize="xs" color="fg.muted">
                    Saved as a draft: send it for review once every required attribute is filled.
                  </Text>
                  <HStack>
                    <Button variant="outline" onClick={onClose} disabled={create.isPending}>
                      Cancel
                    </Button>
                    <Button type="submit" colorPalette="brand" loading={create.isPending}>
                      Add product
                    </Button>
                  </HStack>
                </HStack>
              </Drawer.Footer>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Drawer.CloseTrigger>
            </form>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
