import { Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import type { Seller } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { useCreateSeller, useNextSellerCode } from './api';
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
  const nextCode = useNextSellerCode(open);
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
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title="New seller"
      submitLabel="Create seller"
      pending={create.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      <Text color="fg.muted" fontSize="sm">
        The seller starts in Pending Verification until their e-mail is verified.
      </Text>
      <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
      <SellerFormFields
        values={values}
        errors={errors}
        onChange={setValues}
        codeOptional
        nextCode={nextCode.data}
      />
    </FormDialog>
  );
}
