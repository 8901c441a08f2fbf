// Choosing a catalog product for a line: type part of a title or SKU, choose among the seller's matches,
// give the quantity, add it (offer requests, orders).
import { Button, Field, HStack, Input, Stack } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useProductChoices } from '../services/choices';
import { OptionSelect } from './option-select';
import { useDebouncedValue } from './use-debounced-value';

export interface PickedProduct {
  productId: string;
  label: string;
  quantity: string;
}

/** Type part of a title or SKU, choose the product, give the quantity, add it to the request. */
export function ProductPicker({
  sellerId,
  idPrefix,
  onAdd,
}: {
  sellerId: string | null;
  /** Prefixes the controls' ids (two pickers may share a page). */
  idPrefix: string;
  onAdd: (item: PickedProduct) => void;
}) {
  const [text, setText] = useState('');
  const [productId, setProductId] = useState('');
  const [quantity, setQuantity] = useState('1');
  const searched = useDebouncedValue(text.trim(), 250);
  const options = useProductChoices(sellerId, searched, true);
  const found = options.data ?? [];
  return (
    <Stack gap="2" borderWidth="1px" borderRadius="md" p="3">
      <Input
        size="sm"
        aria-label="Product: find by title or SKU"
        placeholder="Find a product by title or SKU"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <HStack gap="2" align="flex-end" wrap="wrap">
        <Field.Root flex="1" minW="48">
          <Field.Label htmlFor={`${idPrefix}-product`}>Product</Field.Label>
          <OptionSelect
            size="sm"
            id={`${idPrefix}-product`}
            blank="Choose a product"
            value={productId}
            options={found}
            onChange={setProductId}
          />
        </Field.Root>
        <Field.Root width="28">
          <Field.Label htmlFor={`${idPrefix}-quantity`}>Quantity</Field.Label>
          <Input
            size="sm"
            id={`${idPrefix}-quantity`}
            type="number"
            min={1}
            step={1}
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
          />
        </Field.Root>
        <Button
          size="sm"
          variant="outline"
          disabled={!productId}
          onClick={() => {
            const label = found.find((option) => option.value === productId)?.label ?? productId;
            onAdd({ productId, label, quantity });
            setProductId('');
            setQuantity('1');
          }}
        >
          <Plus /> Add product
        </Button>
      </HStack>
    </Stack>
  );
}
