import {
  Button,
  CloseButton,
  Dialog,
  HStack,
  IconButton,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Check, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { CompanyType } from '../../../contracts/contacts';
import { plural } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { FormMessage } from '../../ui/form-parts';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { useCompanyTypes, useDeleteCompanyType, useSaveCompanyType } from './api';

function TypeRow({ type }: { type: CompanyType }) {
  const [name, setName] = useState<string | null>(null);
  const save = useSaveCompanyType();
  const remove = useDeleteCompanyType();
  const [confirming, setConfirming] = useState(false);
  const error = save.error ?? remove.error;
  return (
    <Stack gap="1">
      <HStack gap="2">
        {name === null ? (
          <Text flex="1">
            {type.name}{' '}
            <Text as="span" color="fg.muted" fontSize="sm">
              · {plural(type.contacts, 'contact')}
            </Text>
          </Text>
        ) : (
          <Input
            size="sm"
            flex="1"
            aria-label={`New name for ${type.name}`}
            value={name}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
        )}
        {name === null ? (
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Rename ${type.name}`}
            onClick={() => setName(type.name)}
          >
            <Pencil />
          </IconButton>
        ) : (
          <IconButton
            size="xs"
            variant="ghost"
            aria-label="Save the name"
            loading={save.isPending}
            onClick={() => save.mutate({ id: type.id, name }, { onSuccess: () => setName(null) })}
          >
            <Check />
          </IconButton>
        )}
        {confirming ? (
          <Button
            size="xs"
            colorPalette="red"
            loading={remove.isPending}
            onClick={() => remove.mutate(type.id)}
          >
            Delete{type.contacts ? ` (${type.contacts} keep no type)` : ''}
          </Button>
        ) : (
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Delete ${type.name}`}
            onClick={() => setConfirming(true)}
          >
            <Trash2 />
          </IconButton>
        )}
      </HStack>
      <FormMessage status="error">{error ? getErrorMessage(error) : null}</FormMessage>
    </Stack>
  );
}

/** The company types list the admin manages: add, rename, delete (its contacts then keep no type). */
export function CompanyTypesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const types = useCompanyTypes();
  const add = useSaveCompanyType();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ name }, { onSuccess: () => setName('') });
  };
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && onClose()} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Company types</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {types.isPending ? (
                  <LoadingState rows={3} label="Loading the company types" />
                ) : types.isError ? (
                  <ErrorState message={getErrorMessage(types.error)} onRetry={() => types.refetch()} />
                ) : types.data.length === 0 ? (
                  <Text color="fg.muted">No company types yet.</Text>
                ) : (
                  types.data.map((type) => <TypeRow key={type.id} type={type} />)
                )}
                <form onSubmit={submit} aria-label="Add a company type">
                  <HStack gap="2">
                    <Input
                      size="sm"
                      aria-label="New company type"
                      placeholder="e.g. Distributor"
                      value={name}
                      onChange={(event) => setName(event.target.value)}
                    />
                    <Button size="sm" type="submit" loading={add.isPending} disabled={!name.trim()}>
                      <Plus /> Add
                    </Button>
                  </HStack>
                </form>
                <FormMessage status="error">{add.isError ? getErrorMessage(add.error) : null}</FormMessage>
              </Stack>
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
