import { Field, Input, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { inviteStaffBodySchema } from '../../../contracts/staff';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { useInviteStaff } from './api';

const fields = ['firstName', 'lastName', 'email'] as const;
type FieldName = (typeof fields)[number];
const empty: Record<FieldName, string> = { firstName: '', lastName: '', email: '' };
const labels: Record<FieldName, string> = { firstName: 'First name', lastName: 'Last name', email: 'E-mail' };

/** Invite a staff member: the server creates the account and mails them a link to choose a password. */
export function InviteStaffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const invite = useInviteStaff();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});

  const close = () => {
    if (invite.isPending) return;
    setValues(empty);
    setErrors({});
    invite.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteStaffBodySchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, fields));
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: (answer) => {
        notify({ type: 'success', title: 'Invitation sent', description: answer.message });
        close();
      },
    });
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title="Invite a staff member"
      label="Invite staff member"
      submitLabel="Send invitation"
      pending={invite.isPending}
    >
      <Text color="fg.muted" fontSize="sm">
        They get an e-mail with a link to choose their password. Until then the account cannot be used.
      </Text>
      <FormMessage status="error">{invite.isError ? getErrorMessage(invite.error) : null}</FormMessage>
      {fields.map((name) => (
        <Field.Root key={name} invalid={!!errors[name]} required={name !== 'lastName'}>
          <Field.Label>
            {labels[name]}
            {name !== 'lastName' ? <Field.RequiredIndicator /> : null}
          </Field.Label>
          <Input
            name={name}
            type={name === 'email' ? 'email' : 'text'}
            autoComplete="off"
            maxLength={name === 'email' ? 254 : 100}
            value={values[name]}
            onChange={(e) => setValues({ ...values, [name]: e.target.value })}
          />
          <Field.ErrorText>{errors[name]}</Field.ErrorText>
        </Field.Root>
      ))}
    </FormDialog>
  );
}
