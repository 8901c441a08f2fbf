// Settings → Shipping (issue 29 §4): the volumetric divisor and length unit, the zones with their rates
// by weight band, and a calculator that quotes a parcel from the draft as it is typed. A seller's page
// shows each field inherited or overridden; their own zones are looked up before the marketplace's.
import { Input, NativeSelect, Stack } from '@chakra-ui/react';
import type { JSX } from 'react';
import { type ShippingZone, shippingRulesFor } from '../../../../contracts/domain/shipping-rates';
import type { LengthUnit } from '../../../../contracts/domain/volumetric-weight';
import { SectionFrame } from '../SectionFrame';
import { type SectionForm, SettingField } from '../section-form';
import { ShippingCalculator } from './shipping-calculator';
import { ZonesEditor } from './shipping-zones-editor';

const unitLabels: Record<LengthUnit, string> = {
  cm: 'Centimetres (cm)',
  m: 'Metres (m)',
  in: 'Inches (in)',
};

export default function ShippingSection(): JSX.Element {
  return (
    <SectionFrame
      section="shipping"
      description="Zones by country with rates by chargeable weight: the greater of the actual weight and the volumetric weight (length × width × height ÷ the divisor). Orders are charged with these rates."
    >
      {(form) => <ShippingFields form={form} />}
    </SectionFrame>
  );
}

function ShippingFields({ form }: { form: SectionForm }) {
  const zones = form.value<ShippingZone[]>('zones') ?? [];
  const divisor = form.value<number>('divisor');
  const unit = form.value<LengthUnit>('lengthUnit') ?? 'cm';
  const zonesState = form.field('zones');
  const rules = form.isSeller
    ? shippingRulesFor(
        {
          zones: (zonesState?.inherited as ShippingZone[] | undefined) ?? [],
          divisor: (form.field('divisor')?.inherited as number | undefined) ?? divisor,
        },
        {
          zones,
          divisor,
          // The seller's draft is their own as soon as it differs from what they inherit.
          overridesZones:
            zonesState?.source === 'overridden' ||
            JSON.stringify(zones) !== JSON.stringify(zonesState?.inherited ?? []),
        },
      )
    : shippingRulesFor({ zones, divisor });
  const defaultCurrency =
    zones[0]?.currency ?? (zonesState?.inherited as ShippingZone[] | undefined)?.[0]?.currency ?? 'INR';

  return (
    <Stack gap="5">
      <SettingField
        field="divisor"
        label="Volumetric divisor"
        helperText="Cubic centimetres per chargeable kilogram: couriers use 5000, some 4000 or 6000."
      >
        {(control) => (
          <Input
            id={control.id}
            type="number"
            min={1000}
            max={10000}
            step={1}
            maxW="12rem"
            value={String(control.value ?? '')}
            disabled={control.disabled}
            onChange={(event) =>
              control.onChange(event.target.value === '' ? '' : Number(event.target.value))
            }
          />
        )}
      </SettingField>
      <SettingField field="lengthUnit" label="Length unit">
        {(control) => (
          <NativeSelect.Root disabled={control.disabled} maxW="16rem">
            <NativeSelect.Field
              id={control.id}
              value={String(control.value)}
              onChange={(event) => control.onChange(event.target.value)}
            >
              {(Object.keys(unitLabels) as LengthUnit[]).map((option) => (
                <option key={option} value={option}>
                  {unitLabels[option]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
      </SettingField>
      <SettingField field="zones" label="Shipping zones">
        {(control) => (
          <ZonesEditor
            id={control.id}
            zones={(control.value as ShippingZone[]) ?? []}
            onChange={control.onChange}
            disabled={control.disabled}
            defaultCurrency={defaultCurrency}
          />
        )}
      </SettingField>
      <ShippingCalculator rules={rules} unit={unit} />
    </Stack>
  );
}
