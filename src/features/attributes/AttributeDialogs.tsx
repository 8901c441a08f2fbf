import { Badge, Button, DataList, Dialog, Portal, Stack, Text, Wrap } from '@chakra-ui/react';
import type { AttributeDetail, AttributeSummary } from '../../../contracts/attribute-admin';
import { attributeDataTypeLabels } from '../../../contracts/catalog';
import { formatNumber } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { DeleteRowDialog } from '../../ui/delete-row-dialog';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { AttributeEditorDialog } from './AttributeEditorDialog';
import { useAttribute, useDeleteAttribute } from './api';

export const categoryName = (category: AttributeDetail['categories'][number]) =>
  category.parentName ? `${category.parentName} › ${category.name}` : category.name;

/**
 * Loads one attribute, then shows the editor (or, for users who may not edit, its read-only view). The
 * editor opens only once the attribute is there: swapping a loading dialog for it would hand focus back
 * to the page in between, which closes the new dialog at once. Meanwhile the row's button spins.
 */
export function AttributeDialog({
  id,
  canEdit,
  onClose,
}: {
  id: number;
  canEdit: boolean;
  onClose: () => void;
}) {
  const attribute = useAttribute(id);
  if (canEdit && attribute.data) {
    return (
      <AttributeEditorDialog key={attribute.data.id} attribute={attribute.data} open onClose={onClose} />
    );
  }
  if (canEdit && attribute.isPending) return null;
  return (
    <Dialog.Root open onOpenChange={(event) => !event.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{attribute.data?.label ?? 'Attribute'}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {attribute.isPending ? (
                <LoadingState rows={4} label="Loading the attribute" />
              ) : attribute.isError ? (
                <ErrorState message={getErrorMessage(attribute.error)} onRetry={() => attribute.refetch()} />
              ) : (
                <AttributeFacts attribute={attribute.data} />
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** Everything about an attribute, read-only. */
function AttributeFacts({ attribute }: { attribute: AttributeDetail }) {
  const facts: [string, string][] = [
    ['Code', attribute.code],
    ['Data type', attributeDataTypeLabels[attribute.dataType]],
    ['Values per product', attribute.attributeType === 'MULTI' ? 'Several' : 'One'],
    ['Required', attribute.isRequired ? 'Yes' : 'No'],
    ['Unit', attribute.unit ?? '—'],
    ['Group', attribute.groupName],
    ['Products with a value', formatNumber(attribute.productCount)],
  ];
  return (
    <Stack gap="5">
      <DataList.Root orientation="horizontal">
        {facts.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {attribute.dataType === 'ENUMERATED' ? (
        <Stack gap="2">
          <Text fontWeight="medium">Options</Text>
          {attribute.options.length ? (
            <Wrap gap="2" aria-label="Options">
              {attribute.options.map((option) => (
                <Badge key={option.valueId} variant="outline">
                  {option.value}
                </Badge>
              ))}
            </Wrap>
          ) : (
            <Text color="fg.muted">No options yet.</Text>
          )}
        </Stack>
      ) : null}
      <Stack gap="2">
        <Text fontWeight="medium">Categories</Text>
        {attribute.categories.length ? (
          <Wrap gap="2">
            {attribute.categories.map((category) => (
              <Badge key={category.id}>{categoryName(category)}</Badge>
            ))}
          </Wrap>
        ) : (
          <Text color="fg.muted">No category's set holds it yet.</Text>
        )}
      </Stack>
    </Stack>
  );
}

/** Asks before deleting; the server refuses while products hold values and says how many. */
export function DeleteAttributeDialog({
  target,
  onClose,
}: {
  target: AttributeSummary | null;
  onClose: () => void;
}) {
  const remove = useDeleteAttribute();
  return (
    <DeleteRowDialog
      target={target}
      remove={remove}
      title={(shown) => `Delete ${shown?.label ?? ''}?`}
      description={() =>
        "It leaves every category's set and its options go with it. An attribute that products hold values for cannot be deleted."
      }
      deleted={(row) => `Deleted ${row.label}`}
      onClose={onClose}
    />
  );
}
