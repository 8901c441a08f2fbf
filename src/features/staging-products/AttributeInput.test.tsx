import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Attribute } from '../../../contracts/catalog';
import { system } from '../../ui/theme';
import { AttributeInput } from './AttributeInput';
import { emptyFormValue, type FormValue, toAttributeInput } from './attribute-form';

afterEach(cleanup);

const material: Attribute = {
  id: 41,
  code: 'material',
  label: 'Material',
  dataType: 'ENUMERATED',
  attributeType: 'MULTI',
  isRequired: true,
  unit: null,
  groupName: 'Apparel',
  options: [
    { valueId: 101, value: 'Cotton' },
    { valueId: 102, value: 'Polyester' },
    { valueId: 103, value: 'Linen' },
    { valueId: 104, value: 'Wool' },
  ],
  categoryIds: [],
};

/** The attribute's input as the product form holds it; `saved()` is what the form would send. */
function renderForm(def: Attribute) {
  let current: FormValue = emptyFormValue(def);
  function Form() {
    const [value, setValue] = useState<FormValue>(current);
    return (
      <AttributeInput
        def={def}
        value={value}
        onChange={(next) => {
          current = next;
          setValue(next);
        }}
        sellerId={null}
      />
    );
  }
  render(
    <ChakraProvider value={system}>
      <Form />
    </ChakraProvider>,
  );
  return { saved: () => toAttributeInput(def, current) };
}

describe('a multi-value attribute (checkboxes)', () => {
  it('saves exactly the option the user clicked, here the third one', async () => {
    const { saved } = renderForm(material);
    await userEvent.click(screen.getByText('Linen'));
    expect(saved()).toEqual({ keyId: 41, values: [{ valueId: 103 }] });
    expect(screen.getByRole('checkbox', { name: 'Linen' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Cotton' })).not.toBeChecked();

    // A second click elsewhere adds that option; clicking the box itself works too.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Wool' }));
    expect(saved()).toEqual({ keyId: 41, values: [{ valueId: 103 }, { valueId: 104 }] });
    await userEvent.click(screen.getByText('Linen'));
    expect(saved()).toEqual({ keyId: 41, values: [{ valueId: 104 }] });
  });

  it('gives each box its own id and its option as its name, inside a group named by the attribute', () => {
    renderForm(material);
    const group = screen.getByRole('group', { name: 'Material' });
    expect(group).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((box) => box.id)).toEqual([...new Set(boxes.map((box) => box.id))]);
    expect(boxes.map((box) => box.getAttribute('id'))).not.toContain('');
    for (const option of material.options) {
      expect(screen.getByRole('checkbox', { name: option.value })).toBeInTheDocument();
    }
  });
});

describe('a yes/no attribute (switch)', () => {
  it('is switched by a click on the field label, which names it', async () => {
    const giftWrap: Attribute = {
      ...material,
      id: 42,
      code: 'gift_wrap',
      label: 'Gift wrap',
      dataType: 'BOOLEAN',
      attributeType: 'SINGLE',
      isRequired: false,
      options: [],
    };
    const { saved } = renderForm(giftWrap);
    await userEvent.click(screen.getByText('Gift wrap'));
    expect(saved()).toEqual({ keyId: 42, value: true });
    expect(screen.getByRole('checkbox', { name: 'Gift wrap' })).toBeChecked();
  });
});
