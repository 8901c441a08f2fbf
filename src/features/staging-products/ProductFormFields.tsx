import {
  Field,
  Heading,
  HStack,
  Input,
  InputGroup,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import type { Attribute } from '../../../contracts/catalog';
import { currencyCodes, currencySymbol } from '../../../contracts/domain/currency';
import { volumetricWeight } from '../../../contracts/domain/volumetric-weight';
import { OptionSelect } from '../../ui/option-select';
import { AttributeInput } from './AttributeInput';
import { loadQueryOptions } from './api';
import { emptyFormValue } from './attribute-form';
import { MediaInput } from './MediaInput';
import type { ProductFormState } from './product-form';

const weightUnits: readonly ProductFormState['weightUnit'][] = ['g', 'kg', 'lb'];
const lengthUnits: readonly ProductFormState['lengthUnit'][] = ['cm', 'm', 'in'];

/** Every category (a short list), for the category select. */
function useCategoryOptions() {
  const [options, setOptions] = useState<{ value: string; label: string }[] | null>(null);
  useEffect(() => {
    let live = true;
    loadQueryOptions('categories', '', [], 500).then(
      (loaded) => live && setOptions(loaded),
      () => live && setOptions([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return options;
}

/** Sellers whose name or code contains the typed text (there may be thousands). */
function useSellerSearch(text: string, enabled: boolean) {
  const [options, setOptions] = useState<{ value: string; label: string }[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const timer = setTimeout(() => {
      loadQueryOptions('sellers', text.trim()).then(
        (loaded) => live && setOptions(loaded),
        () => live && setOptions([]),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, enabled]);
  return options;
}

function Select({
  id,
  value,
  onChange,
  options,
  placeholder,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  placeholder: string;
}) {
  return (
    <OptionSelect size="sm" id={id} value={value} blank={placeholder} options={options} onChange={onChange} />
  );
}

/** The short select of codes beside a number field (currency, weight and length unit), named by its aria label. */
function UnitSelect<T extends string>({
  label,
  value,
  units,
  onChange,
  width,
  flexShrink,
}: {
  label: string;
  value: T;
  units: readonly T[];
  onChange: (value: T) => void;
  width: string;
  flexShrink?: number;
}) {
  return (
    <NativeSelect.Root size="sm" width={width} flexShrink={flexShrink}>
      <NativeSelect.Field
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {units.map((unit) => (
          <option key={unit} value={unit}>
            {unit}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** Attributes under their group headings, in the order the category's set gives them. */
export function groupAttributes(defs: readonly Attribute[]): [string, Attribute[]][] {
  const groups = new Map<string, Attribute[]>();
  for (const def of defs) groups.set(def.groupName, [...(groups.get(def.groupName) ?? []), def]);
  return [...groups.entries()];
}

/**
 * The product's fields, its gallery and its category's attributes, grouped. Used by "Add product" and
 * by the details page's editor; errors are keyed as the server keys them (`sku`, `attributeValues.12`).
 */
export function ProductFormFields({
  form,
  onChange,
  defs,
  errors,
  chooseSeller,
  sellerLocked = false,
}: {
  form: ProductFormState;
  onChange: (patch: Partial<ProductFormState>) => void;
  defs: readonly Attribute[] | undefined;
  errors: Record<string, string>;
  /** Staff and admins pick the seller; a seller's products are their own. */
  chooseSeller: boolean;
  /** An existing product keeps its seller. */
  sellerLocked?: boolean;
}) {
  const [sellerText, setSellerText] = useState('');
  const sellers = useSellerSearch(sellerText, chooseSeller && !sellerLocked);
  const categories = useCategoryOptions();
  const volumetric = useMemo(() => {
    const sides = [form.length, form.width, form.height].map((text) => Number(text));
    if (sides.some((side) => !form.length || !Number.isFinite(side) || side <= 0)) return null;
    return volumetricWeight({
      length: sides[0] as number,
      width: sides[1] as number,
      height: sides[2] as number,
      unit: form.lengthUnit,
    });
  }, [form.length, form.width, form.height, form.lengthUnit]);
  const sellerForUploads = chooseSeller ? form.sellerId || null : null;
  const field = (name: string) => ({ invalid: Boolean(errors[name]) });

  return (
    <Stack gap="6">
      <Stack gap="3">
        <Heading size="sm">Product</Heading>
        {chooseSeller && !sellerLocked ? (
          <Field.Root required {...field('sellerId')}>
            <Field.Label htmlFor="product-seller">
              Seller <Field.RequiredIndicator />
            </Field.Label>
            <Input
              size="sm"
              placeholder="Find a seller by name or code"
              aria-label="Find a seller"
              value={sellerText}
              onChange={(event) => setSellerText(event.target.value)}
            />
            <Select
              id="product-seller"
              value={form.sellerId}
              onChange={(sellerId) => onChange({ sellerId, images: [] })}
              options={sellers ?? []}
              placeholder={sellers ? 'Choose a seller' : 'Loading…'}
            />
            <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
          </Field.Root>
        ) : null}
        <Field.Root required {...field('title')}>
          <Field.Label htmlFor="product-title">
            Title <Field.RequiredIndicator />
          </Field.Label>
          <Input
            id="product-title"
            size="sm"
            maxLength={200}
            value={form.title}
            onChange={(event) => onChange({ title: event.target.value })}
          />
          <Field.ErrorText>{errors.title}</Field.ErrorText>
        </Field.Root>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          <Field.Root required {...field('sku')}>
            <Field.Label htmlFor="product-sku">
              SKU <Field.RequiredIndicator />
            </Field.Label>
            <Input
              id="product-sku"
              size="sm"
              maxLength={64}
              value={form.sku}
              onChange={(event) => onChange({ sku: event.target.value })}
            />
            <Field.ErrorText>{errors.sku}</Field.ErrorText>
          </Field.Root>
          <Field.Root required {...field('categoryId')}>
            <Field.Label htmlFor="product-category">
              Category <Field.RequiredIndicator />
            </Field.Label>
            <Select
              id="product-category"
              value={form.categoryId}
              onChange={(categoryId) => onChange({ categoryId })}
              options={categories ?? []}
              placeholder={categories ? 'Choose a category' : 'Loading…'}
            />
            <Field.ErrorText>{errors.categoryId}</Field.ErrorText>
          </Field.Root>
          <Field.Root required {...field('price')}>
            <Field.Label htmlFor="product-price">
              Price <Field.RequiredIndicator />
            </Field.Label>
            <HStack gap="2">
              <InputGroup startAddon={currencySymbol(form.currency)}>
                <Input
                  id="product-price"
                  size="sm"
                  inputMode="decimal"
                  value={form.price}
                  onChange={(event) => onChange({ price: event.target.value })}
                />
              </InputGroup>
              <UnitSelect
                label="Currency"
                width="28"
                units={currencyCodes}
                value={form.currency}
                onChange={(currency) => onChange({ currency })}
              />
            </HStack>
            <Field.ErrorText>{errors.price ?? errors.currency}</Field.ErrorText>
          </Field.Root>
          <Field.Root required {...field('inventory')}>
            <Field.Label htmlFor="product-inventory">
              Inventory <Field.RequiredIndicator />
            </Field.Label>
            <Input
              id="product-inventory"
              size="sm"
              inputMode="numeric"
              value={form.inventory}
              onChange={(event) => onChange({ inventory: event.target.value })}
            />
            <Field.ErrorText>{errors.inventory}</Field.ErrorText>
          </Field.Root>
          <Field.Root {...field('weight')}>
            <Field.Label htmlFor="product-weight">Weight</Field.Label>
            <HStack gap="2">
              <Input
                id="product-weight"
                size="sm"
                inputMode="decimal"
                value={form.weight}
                onChange={(event) => onChange({ weight: event.target.value })}
              />
              <UnitSelect
                label="Weight unit"
                width="24"
                units={weightUnits}
                value={form.weightUnit}
                onChange={(weightUnit) => onChange({ weightUnit })}
              />
            </HStack>
            <Field.ErrorText>{errors.weight}</Field.ErrorText>
          </Field.Root>
          <Field.Root {...field('dimensions')}>
            <Field.Label>Dimensions (L × W × H)</Field.Label>
            <HStack gap="1">
              {(['length', 'width', 'height'] as const).map((side) => (
                <Input
                  key={side}
                  size="sm"
                  inputMode="decimal"
                  aria-label={side[0]?.toUpperCase() + side.slice(1)}
                  value={form[side]}
                  onChange={(event) => onChange({ [side]: event.target.value })}
                />
              ))}
              <UnitSelect
                label="Length unit"
                width="24"
                flexShrink={0}
                units={lengthUnits}
                value={form.lengthUnit}
                onChange={(lengthUnit) => onChange({ lengthUnit })}
              />
            </HStack>
            <Field.HelperText>
              {volumetric === null
                ? 'Used for the volumetric weight.'
                : `Volumetric weight: ${volumetric} kg`}
            </Field.HelperText>
            <Field.ErrorText>{errors.dimensions}</Field.ErrorText>
          </Field.Root>
        </SimpleGrid>
        <Field.Root {...field('imageIds')}>
          <Field.Label>Images</Field.Label>
          {chooseSeller && !form.sellerId ? (
            <Text fontSize="sm" color="fg.muted">
              Choose the seller first: images belong to the seller's catalogue.
            </Text>
          ) : (
            <MediaInput
              kind="image"
              multiple
              mainLabel
              value={form.images}
              onChange={(images) => onChange({ images })}
              sellerId={sellerForUploads}
              label="Images"
              inputTestId="upload-images"
            />
          )}
          <Field.ErrorText>{errors.imageIds}</Field.ErrorText>
        </Field.Root>
      </Stack>

      {!form.categoryId ? (
        <Text color="fg.muted" fontSize="sm">
          Choose a category to fill in its attributes.
        </Text>
      ) : !defs ? (
        <Text color="fg.muted" fontSize="sm">
          Loading the category's attributes…
        </Text>
      ) : defs.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          This category has no attributes.
        </Text>
      ) : (
        groupAttributes(defs).map(([group, members]) => (
          <Stack key={group} gap="3">
            <Heading size="sm">{group}</Heading>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
              {members.map((def) => (
                <AttributeInput
                  key={def.id}
                  def={def}
                  value={form.attributes[def.id] ?? emptyFormValue(def)}
                  onChange={(value) => onChange({ attributes: { ...form.attributes, [def.id]: value } })}
                  error={errors[`attributeValues.${def.id}`]}
                  sellerId={sellerForUploads}
                />
              ))}
            </SimpleGrid>
          </Stack>
        ))
      )}
    </Stack>
  );
}
