import {
  Badge,
  Box,
  Button,
  Card,
  DataList,
  Field,
  Flex,
  Heading,
  HStack,
  Image,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Pencil } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import {
  type Attribute,
  type AttributeValue,
  type Product,
  type ProductStatus,
  productStatusLabels,
  transitionsFrom,
} from '../../../contracts/catalog';
import { formatMoney } from '../../../contracts/domain/currency';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import { relativeTime } from '../../lib/relative-time';
import { statusColor } from '../../lib/status-color';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { HistoryTimeline } from '../../ui/history-timeline';
import { notify } from '../../ui/notify';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import {
  fieldErrorsOf,
  useCategoryAttributes,
  useChangeStatus,
  useProduct,
  useProductHistory,
  useUpdateProduct,
} from './api';
import { groupAttributes, ProductFormFields } from './ProductFormFields';
import { PRODUCT_DETAILS } from './ProductTable';
import { ProductTagsCard } from './ProductTagsCard';
import { type ProductFormState, productFormOf, toUpdateBody } from './product-form';
import { productHistoryWords } from './product-history-format';
import { StockCard } from './StockCard';

/** An attribute's stored value as the details page reads it (rich text rendered, sanitised by the server). */
function AttributeValueView({ def, value }: { def: Attribute; value: AttributeValue | undefined }) {
  if (!value) return <Text color="fg.muted">—</Text>;
  const items = 'values' in value ? value.values : [{ value: value.value, valueId: value.valueId }];
  switch (def.dataType) {
    case 'WYSIWYG':
      // The server stores this HTML only after sanitize-html has kept the safe tags of its allow-list.
      return (
        <Box
          className="rich-text"
          fontSize="sm"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (attribute-values.ts)
          dangerouslySetInnerHTML={{ __html: String(items[0]?.value ?? '') }}
        />
      );
    case 'IMAGE':
      return (
        <HStack wrap="wrap">
          {items.map((item) => (
            <Image
              key={String(item.valueId)}
              src={item.thumbUrl ?? String(item.value)}
              alt={def.label}
              boxSize="16"
              objectFit="cover"
              rounded="sm"
            />
          ))}
        </HStack>
      );
    case 'VIDEO':
      return (
        <Stack>
          {items.map((item) => (
            // biome-ignore lint/a11y/useMediaCaption: product videos uploaded by sellers carry no captions
            <video
              key={String(item.valueId)}
              src={String(item.value)}
              controls
              preload="metadata"
              style={{ maxWidth: 320 }}
            />
          ))}
        </Stack>
      );
    case 'BOOLEAN':
      return <Text>{items[0]?.value ? 'Yes' : 'No'}</Text>;
    case 'OBJECT':
      return (
        <Box as="pre" fontSize="xs" bg="bg.muted" p="2" rounded="sm" overflowX="auto">
          {JSON.stringify(items[0]?.value, null, 2)}
        </Box>
      );
    case 'DATETIME':
      return <Text>{formatDateTime(String(items[0]?.value))}</Text>;
    default:
      return (
        <Text>
          {items.map((item) => String(item.value)).join(', ')}
          {def.unit && (def.dataType === 'NUMBER' || def.dataType === 'FLOAT') ? ` ${def.unit}` : ''}
        </Text>
      );
  }
}

function StatusActions({ product, canEdit }: { product: Product; canEdit: boolean }) {
  const user = useCurrentUser();
  const change = useChangeStatus(product.id);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const moves = transitionsFrom(product.status, user.data?.isSeller ? 'seller' : 'reviewer');
  if (!canEdit || moves.length === 0) return null;
  const go = (status: ProductStatus, withReason?: string) =>
    change.mutate(
      { status, reason: withReason, version: product.version },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: `The product is now ${productStatusLabels[status].toLowerCase()}.`,
          });
          setRejecting(false);
        },
        onError: (failure) => setError(getErrorMessage(failure)),
      },
    );
  return (
    <HStack gap="2" wrap="wrap">
      {moves.map((move) => (
        <Button
          key={move.to}
          size="sm"
          variant={move.to === 'rejected' ? 'outline' : 'solid'}
          colorPalette={move.to === 'rejected' ? 'red' : 'brand'}
          loading={change.isPending && change.variables?.status === move.to}
          disabled={move.needsComplete && product.completeness < 100}
          title={
            move.needsComplete && product.completeness < 100
              ? 'Fill in every required attribute first.'
              : undefined
          }
          onClick={() => {
            setError(null);
            if (move.needsReason) {
              setReason('');
              setRejecting(true);
            } else go(move.to);
          }}
        >
          {move.label}
        </Button>
      ))}
      <FormDialog
        open={rejecting}
        onClose={() => setRejecting(false)}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          go('rejected', reason);
        }}
        title="Reject the product"
        submitLabel="Reject"
        submitPalette="red"
        pending={change.isPending}
      >
        <Field.Root required invalid={Boolean(error)}>
          <Field.Label>Why is it rejected? The seller reads this.</Field.Label>
          <Textarea value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
      </FormDialog>
    </HStack>
  );
}

function Editor({ product, defs, onDone }: { product: Product; defs: Attribute[]; onDone: () => void }) {
  const [form, setForm] = useState<ProductFormState>(() => productFormOf(product, defs));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const categoryDefs = useCategoryAttributes(form.categoryId || null);
  const update = useUpdateProduct(product.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, errors: found } = toUpdateBody(form, categoryDefs.data ?? defs, product.version);
    setErrors(found);
    setMessage(body ? null : 'Some fields need attention.');
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => {
        notify({ type: 'success', title: 'Changes saved.' });
        onDone();
      },
      onError: (failure) => {
        setErrors(fieldErrorsOf(failure));
        setMessage(getErrorMessage(failure));
      },
    });
  };
  return (
    <Card.Root asChild>
      <form onSubmit={submit} noValidate aria-label="Edit product">
        <Card.Body>
          <ProductFormFields
            form={form}
            onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
            defs={categoryDefs.data ?? defs}
            errors={errors}
            chooseSeller={false}
            sellerLocked
          />
        </Card.Body>
        <Card.Footer flexDirection="column" alignItems="stretch" gap="2">
          <FormMessage status="error">{message}</FormMessage>
          <HStack justify="end">
            <Button variant="outline" onClick={onDone} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" colorPalette="brand" loading={update.isPending}>
              Save changes
            </Button>
          </HStack>
        </Card.Footer>
      </form>
    </Card.Root>
  );
}

/** A product's details (SPEC §2 `/product/staging-products?id=`): every field, gallery, status, tags, history. */
export default function ProductDetailsPage() {
  const search = useSearch();
  const id = new URLSearchParams(search).get('id');
  const product = useProduct(id);
  const defs = useCategoryAttributes(product.data?.categoryId ?? null);
  const history = useProductHistory(id ?? '');
  const { can } = useRouteActions(PRODUCT_DETAILS);
  const [editing, setEditing] = useState(false);
  const values = useMemo(
    () => new Map((product.data?.attributeValues ?? []).map((value) => [value.keyId, value])),
    [product.data],
  );

  if (!id)
    return <FullPageMessage title="No product chosen" description="Open a product from the staging grid." />;
  if (product.isPending) return <LoadingState rows={6} label="Loading the product" />;
  if (product.isError)
    return <ErrorState message={getErrorMessage(product.error)} onRetry={() => product.refetch()} />;
  const data = product.data;
  const label = productStatusLabels[data.status];

  return (
    <>
      <PageHeader
        title={data.title}
        description={`${data.sku} · ${data.sellerName}${data.categoryName ? ` · ${data.categoryName}` : ''}`}
        actions={
          <HStack gap="2" wrap="wrap">
            <StatusActions product={data} canEdit={can('edit')} />
            {can('edit') && !editing ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setEditing(true)}
                disabled={!defs.data && Boolean(data.categoryId)}
                data-tour="product-edit"
              >
                <Pencil /> Edit
              </Button>
            ) : null}
          </HStack>
        }
      />
      <Flex gap="6" direction={{ base: 'column', lg: 'row' }} align="start">
        <Stack gap="6" flex="2" minW="0" w="full">
          <Card.Root>
            <Card.Body>
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                <Stack gap="1" data-tour="product-status">
                  <Text fontSize="sm" color="fg.muted">
                    Status
                  </Text>
                  <HStack>
                    <Badge colorPalette={statusColor(label)} size="lg" data-testid="product-status">
                      {label}
                    </Badge>
                  </HStack>
                  {data.statusReason ? (
                    <Text fontSize="sm" color="fg.error">
                      “{data.statusReason}”
                    </Text>
                  ) : null}
                </Stack>
                <Stack gap="1" data-tour="product-completeness">
                  <Text fontSize="sm" color="fg.muted">
                    Completeness
                  </Text>
                  <Progress.Root
                    value={data.completeness}
                    colorPalette={data.completeness === 100 ? 'green' : 'yellow'}
                  >
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                  <Text fontSize="sm" data-testid="product-completeness">
                    {data.completeness}%
                    {data.missingAttributes.length
                      ? ` · missing ${data.missingAttributes.map((attribute) => attribute.label).join(', ')}`
                      : ' · every required attribute is filled'}
                  </Text>
                </Stack>
                <Stack gap="1">
                  <Text fontSize="sm" color="fg.muted">
                    Updated
                  </Text>
                  <Text title={formatDateTime(data.updatedAt)}>{relativeTime(data.updatedAt)}</Text>
                </Stack>
              </SimpleGrid>
            </Card.Body>
          </Card.Root>

          <ProductTagsCard product={data} canEdit={can('edit')} />
          <StockCard productId={data.id} canEdit={can('edit')} />

          {editing ? (
            <Editor product={data} defs={defs.data ?? []} onDone={() => setEditing(false)} />
          ) : (
            <>
              <Card.Root>
                <Card.Header>
                  <Heading size="sm">Product</Heading>
                </Card.Header>
                <Card.Body>
                  <DataList.Root orientation="horizontal" size="sm">
                    {[
                      ['Price', formatMoney(data.price, data.currency)],
                      ['Inventory (on hand)', formatNumber(data.inventory)],
                      ['Weight', data.weight === null ? '—' : `${data.weight} ${data.weightUnit}`],
                      [
                        'Dimensions',
                        data.dimensions
                          ? `${data.dimensions.length} × ${data.dimensions.width} × ${data.dimensions.height} ${data.dimensions.unit}`
                          : '—',
                      ],
                      [
                        'Volumetric weight',
                        data.volumetricWeight === null ? '—' : `${data.volumetricWeight} kg`,
                      ],
                    ].map(([name, value]) => (
                      <DataList.Item key={name}>
                        <DataList.ItemLabel>{name}</DataList.ItemLabel>
                        <DataList.ItemValue>{value}</DataList.ItemValue>
                      </DataList.Item>
                    ))}
                  </DataList.Root>
                </Card.Body>
              </Card.Root>
              <Card.Root>
                <Card.Header>
                  <Heading size="sm">Images</Heading>
                </Card.Header>
                <Card.Body>
                  {data.images.length === 0 ? (
                    <Text color="fg.muted">No images yet. Edit the product to upload some.</Text>
                  ) : (
                    <HStack wrap="wrap" gap="3" data-testid="gallery">
                      {data.images.map((image, index) => (
                        <Box key={image.id} position="relative">
                          <a href={image.webUrl} target="_blank" rel="noreferrer">
                            <Image
                              src={image.thumbUrl}
                              alt={image.fileName}
                              boxSize="28"
                              objectFit="cover"
                              rounded="md"
                            />
                          </a>
                          {index === 0 ? (
                            <Badge
                              position="absolute"
                              top="1"
                              left="1"
                              size="sm"
                              colorPalette="brand"
                              variant="solid"
                            >
                              Main
                            </Badge>
                          ) : null}
                        </Box>
                      ))}
                    </HStack>
                  )}
                </Card.Body>
              </Card.Root>
              {groupAttributes(defs.data ?? []).map(([group, members]) => (
                <Card.Root key={group}>
                  <Card.Header>
                    <Heading size="sm">{group}</Heading>
                  </Card.Header>
                  <Card.Body>
                    <DataList.Root orientation="horizontal" size="sm">
                      {members.map((def) => (
                        <DataList.Item key={def.id}>
                          <DataList.ItemLabel>
                            {def.label}
                            {def.isRequired ? ' *' : ''}
                          </DataList.ItemLabel>
                          <DataList.ItemValue>
                            <AttributeValueView def={def} value={values.get(def.id)} />
                          </DataList.ItemValue>
                        </DataList.Item>
                      ))}
                    </DataList.Root>
                  </Card.Body>
                </Card.Root>
              ))}
            </>
          )}
        </Stack>
        <Card.Root flex="1" minW={{ lg: '80' }} w="full" data-tour="product-history">
          <Card.Header>
            <Heading size="sm">History</Heading>
          </Card.Header>
          <Card.Body>
            <HistoryTimeline
              history={history}
              words={productHistoryWords(data.currency)}
              emptyDescription="Every edit and status change is listed here with who made it."
            />
          </Card.Body>
        </Card.Root>
      </Flex>
    </>
  );
}
