// A postal address's fields (SPEC §3 Address: full name, e-mail, two address lines, city, state,
// country, zip code), each with its error: orders' shipping and billing addresses.
import { Field, Input, SimpleGrid } from '@chakra-ui/react';

export interface AddressForm {
  fullName: string;
  email: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  country: string;
  zipcode: string;
}

export const emptyAddress: AddressForm = {
  fullName: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  country: '',
  zipcode: '',
};

const FIELDS: [keyof AddressForm, string, boolean][] = [
  ['fullName', 'Full name', true],
  ['email', 'Recipient e-mail', false],
  ['addressLine1', 'Address line 1', true],
  ['addressLine2', 'Address line 2', false],
  ['city', 'City', true],
  ['state', 'State or region', false],
  ['zipcode', 'Zip code', false],
  ['country', 'Country (two letters)', true],
];

export function AddressFields({
  idPrefix,
  value,
  errors,
  onChange,
}: {
  /** Prefixes the inputs' ids and names (a page may hold two addresses). */
  idPrefix: string;
  value: AddressForm;
  /** Messages by field name. */
  errors: Partial<Record<keyof AddressForm, string>>;
  onChange: (next: AddressForm) => void;
}) {
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
      {FIELDS.map(([name, label, required]) => (
        <Field.Root key={name} required={required} invalid={Boolean(errors[name])}>
          <Field.Label htmlFor={`${idPrefix}-${name}`}>
            {label} {required ? <Field.RequiredIndicator /> : null}
          </Field.Label>
          <Input
            id={`${idPrefix}-${name}`}
            name={`${idPrefix}.${name}`}
            value={value[name]}
            maxLength={name === 'country' ? 2 : 200}
            type={name === 'email' ? 'email' : 'text'}
            autoComplete="off"
            onChange={(event) =>
              onChange({
                ...value,
                [name]: name === 'country' ? event.target.value.toUpperCase() : event.target.value,
              })
            }
          />
          <Field.ErrorText>{errors[name]}</Field.ErrorText>
        </Field.Root>
      ))}
    </SimpleGrid>
  );
}
