import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShippingRules, ShippingZone } from '../../../../contracts/domain/shipping-rates';
import { system } from '../../../ui/theme';
import { SettingsScopeProvider } from '../scope';
import { ShippingCalculator } from './shipping-calculator';

afterEach(cleanup);

const india: ShippingZone = {
  id: 'india',
  name: 'India',
  countries: ['IN'],
  currency: 'INR',
  bands: [
    { fromKg: 0, toKg: 5, rateMinor: 10000 },
    { fromKg: 5, toKg: null, rateMinor: 25000 },
  ],
};
const rules: ShippingRules = { sellerZones: [], marketplaceZones: [india], volumetricDivisor: 5000 };

const show = (props: Partial<Parameters<typeof ShippingCalculator>[0]> = {}, shopId: string | null = null) =>
  render(
    <ChakraProvider value={system}>
      <SettingsScopeProvider sellerId={shopId}>
        <ShippingCalculator rules={rules} unit="cm" {...props} />
      </SettingsScopeProvider>
    </ChakraProvider>,
  );
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const shown = (name: string) => screen.getByTestId(`quote-${name}`).textContent;

describe('ShippingCalculator', () => {
  it('charges the volumetric weight of a light, bulky parcel, as it is typed', () => {
    show();
    type('Actual weight (kg)', '2');
    expect(shown('chargeable-weight')).toBe('2 kg');
    expect(shown('rate')).toBe('₹100.00');
    type('Length (cm)', '40');
    type('Width (cm)', '30');
    type('Height (cm)', '30');
    expect(shown('volumetric-weight')).toBe('7.2 kg');
    expect(shown('chargeable-weight')).toBe('7.2 kg');
    expect(shown('zone')).toBe("India (the marketplace's)");
    expect(shown('rate')).toBe('₹250.00');
  });

  it("converts the section's unit and uses its divisor", () => {
    show({ unit: 'in', rules: { ...rules, volumetricDivisor: 4000 } });
    type('Length (in)', '10');
    type('Width (in)', '10');
    type('Height (in)', '10');
    // 1000 in³ = 16387.064 cm³; / 4000 = 4.097 kg.
    expect(shown('volumetric-weight')).toBe('4.097 kg');
    expect(shown('rate')).toBe('₹100.00');
  });

  it("prices with the seller's own zone first, and says when no zone covers the country", () => {
    const own = {
      ...india,
      id: 'own',
      name: 'My India',
      bands: [{ fromKg: 0, toKg: null, rateMinor: 9900 }],
    };
    show({ rules: { ...rules, sellerZones: [own] } });
    type('Actual weight (kg)', '1');
    expect(shown('zone')).toBe('My India (your own)');
    expect(shown('rate')).toBe('₹99.00');
    fireEvent.change(screen.getByLabelText('Destination'), { target: { value: 'DE' } });
    expect(screen.getByRole('status', { name: 'Shipping quote' })).toHaveTextContent(
      'No shipping zone covers DE.',
    );
  });

  it("calls a shop's zone the shop's own when an admin looks at the shop's settings", () => {
    const own = { ...india, id: 'own', name: 'Shop India' };
    show({ rules: { ...rules, sellerZones: [own] } }, 'shop-1');
    type('Actual weight (kg)', '1');
    expect(shown('zone')).toBe("Shop India (the shop's own)");
  });

  it('asks for numbers when a size is not one', () => {
    show();
    type('Width (cm)', '-3');
    expect(screen.getByRole('status', { name: 'Shipping quote' })).toHaveTextContent(
      "Enter the parcel's sizes and weight as numbers.",
    );
  });

  it('quotes nothing while the divisor is being typed', () => {
    show({ rules: { ...rules, volumetricDivisor: 0 } });
    type('Actual weight (kg)', '1');
    expect(screen.getByRole('status', { name: 'Shipping quote' })).toHaveTextContent(
      'Enter a volumetric divisor to quote.',
    );
  });
});
