// The shipping calculator of the settings page: a parcel's dimensions (in the section's unit), its
// actual weight and its destination give the volumetric weight, the chargeable weight (the greater) and
// the zone and rate, as they are typed, with the same quoteShipping the orders module charges with.
import { Box, Card, Field, Grid, Heading, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useId, useMemo, useState } from 'react';
import { formatNumber } from '../../../../contracts/domain/format';
import { countryList } from '../../../../contracts/domain/iso-codes';
import { quoteShipping, type ShippingRules } from '../../../../contracts/domain/shipping-rates';
import type { LengthUnit } from '../../../../contracts/domain/volumetric-weight';
import { useSettingsSellerId } from '../scope';
import { formatMinorUnits } from './shipping-money';

const unitNames: Record<LengthUnit, string> = { cm: 'cm', m: 'm', in: 'in' };

/** A typed size or weight: empty is 0 (a form being filled), anything else must be a number ≥ 0. */
function measure(text: string): number | null {
  if (text.trim() === '') return 0;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? value : null;
}

export function ShippingCalculator({
  rules,
  unit,
  defaultCountry = 'IN',
}: {
  rules: ShippingRules;
  unit: LengthUnit;
  defaultCountry?: string;
}) {
  const id = useId();
  // An admin looking at a shop's settings (Settings of): the shop's zones are not theirs.
  const ownZones = useSettingsSellerId() ? "the shop's own" : 'your own';
  const [sizes, setSizes] = useState({ length: '', width: '', height: '', weight: '' });
  const [country, setCountry] = useState(defaultCountry);
  const countries = useMemo(() => countryList(), []);

  const numbers = {
    length: measure(sizes.length),
    width: measure(sizes.width),
    height: measure(sizes.height),
    weight: measure(sizes.weight),
  };
  const invalid = Object.values(numbers).some((value) => value === null);
  const quote = invalid ? null : quoteOrNull();

  function quoteOrNull() {
    try {
      return quoteShipping(
        {
          country,
          actualKg: numbers.weight as number,
          dimensions: {
            length: numbers.length as number,
            width: numbers.width as number,
            height: numbers.height as number,
            unit,
          },
        },
        rules,
      );
    } catch {
      // A divisor being typed (empty, 0) quotes nothing rather than breaking the page.
      return null;
    }
  }

  const input = (name: keyof typeof sizes, label: string) => (
    <Field.Root invalid={numbers[name] === null}>
      <Field.Label htmlFor={`${id}-${name}`}>{label}</Field.Label>
      <Input
        id={`${id}-${name}`}
        inputMode="decimal"
        value={sizes[name]}
        onChange={(event) => setSizes((current) => ({ ...current, [name]: event.target.value }))}
      />
      <Field.ErrorText>Enter a number of 0 or more.</Field.ErrorText>
    </Field.Root>
  );

  return (
    <Card.Root variant="outline">
      <Card.Body gap="4">
        <Heading as="h3" size="sm">
          Shipping calculator
        </Heading>
        <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(5, 1fr)' }} gap="3">
          {input('length', `Length (${unitNames[unit]})`)}
          {input('width', `Width (${unitNames[unit]})`)}
          {input('height', `Height (${unitNames[unit]})`)}
          {input('weight', 'Actual weight (kg)')}
          <Field.Root>
            <Field.Label htmlFor={`${id}-country`}>Destination</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                id={`${id}-country`}
                value={country}
                onChange={(event) => setCountry(event.target.value)}
              >
                {countries.map((option) => (
                  <option key={option.code} value={option.code}>
                    {option.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </Grid>
        <Box role="status" aria-live="polite" aria-label="Shipping quote">
          {quote === null ? (
            <Text color="fg.muted">
              {invalid
                ? "Enter the parcel's sizes and weight as numbers."
                : 'Enter a volumetric divisor to quote.'}
            </Text>
          ) : (
            <Stack as="dl" gap="1" fontSize="sm">
              <Row label="Volumetric weight" value={`${formatNumber(quote.volumetricKg, 3)} kg`} />
              <Row label="Chargeable weight" value={`${formatNumber(quote.chargeableKg, 3)} kg`} />
              {quote.ok ? (
                <>
                  <Row
                    label="Zone"
                    value={`${quote.zone.name} (${quote.scope === 'seller' ? ownZones : "the marketplace's"})`}
                  />
                  <Row label="Rate" value={formatMinorUnits(quote.rateMinor, quote.currency)} />
                </>
              ) : (
                <Text color="fg.error">{quote.reason}</Text>
              )}
            </Stack>
          )}
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Grid templateColumns="12rem 1fr" gap="2">
      <Text as="dt" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" fontWeight="medium" data-testid={`quote-${label.toLowerCase().replaceAll(' ', '-')}`}>
        {value}
      </Text>
    </Grid>
  );
}
