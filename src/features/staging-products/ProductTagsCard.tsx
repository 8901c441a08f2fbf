// The product's tags (issue 16) on its details page: chips with their paths, and — with the edit
// permission — tags added from the tag tree and removed, each change saved at once with the version
// read (a stale one is refused, as for any edit) and listed in the history. Staff and admins pick from
// the draft tree; sellers read the published one (tag ids are the same in both).
import { Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { PRODUCT_LIMITS, type Product } from '../../../contracts/catalog';
import type { TagTreeSource } from '../../../contracts/tags';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { FormMessage } from '../../ui/form-parts';
import { TagPicker } from '../../ui/tag-picker';
import { stagingKeys, useUpdateProduct } from './api';
import { chipOfProductTag, TagChips } from './TagChips';

export function ProductTagsCard({ product, canEdit }: { product: Product; canEdit: boolean }) {
  const user = useCurrentUser();
  const source: TagTreeSource = user.data?.isSeller ? 'latest' : 'draft';
  const client = useQueryClient();
  const update = useUpdateProduct(product.id);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = product.tagIds.length >= PRODUCT_LIMITS.tags;

  const save = (tagIds: string[]) =>
    update.mutate(
      { version: product.version, tagIds },
      {
        // The answer is the product as saved: shown at once, so the next change names its new version.
        onSuccess: (saved) => {
          client.setQueryData(stagingKeys.detail(product.id), saved);
          setError(null);
        },
        onError: (failure) => setError(getErrorMessage(failure)),
      },
    );

  return (
    <Card.Root data-testid="product-tags">
      <Card.Header>
        <HStack justify="space-between" gap="2">
          <Heading size="sm">Tags</Heading>
          {canEdit ? (
            <Button
              size="xs"
              variant="outline"
              onClick={() => setPicking((open) => !open)}
              aria-expanded={picking}
              disabled={full && !picking}
            >
              {picking ? <X /> : <Plus />} {picking ? 'Done' : 'Add tags'}
            </Button>
          ) : null}
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          {product.tags.length ? (
            <TagChips
              tags={product.tags.map(chipOfProductTag)}
              label="Product tags"
              onRemove={canEdit ? (id) => save(product.tagIds.filter((tagId) => tagId !== id)) : undefined}
              disabled={update.isPending}
            />
          ) : (
            <Text color="fg.muted" fontSize="sm">
              No tags yet.{canEdit ? ' Tags place the product in the storefront’s navigation.' : ''}
            </Text>
          )}
          {picking && canEdit ? (
            full ? (
              <Text fontSize="sm" color="fg.muted">
                A product carries at most {PRODUCT_LIMITS.tags} tags: remove one to add another.
              </Text>
            ) : (
              <TagPicker
                source={source}
                label="Find a tag to add"
                autoFocus
                exclude={(tag) =>
                  product.tagIds.includes(tag.id)
                    ? 'Already on the product'
                    : update.isPending
                      ? 'Saving…'
                      : null
                }
                onPick={(tag) => save([...product.tagIds, tag.id])}
              />
            )
          ) : null}
          <FormMessage status="error">{error}</FormMessage>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
