// Settings → Company (issue 29 §6): what invoices print — the legal name, address, tax id (checked by
// the country's format as typed; the server refuses a malformed one), logo, bank details, fiscal year,
// the invoice and credit-note series with their next numbers, the footer — and the marketplace's tax
// options. A seller overrides these for their own invoices; the tax options are the marketplace's only
// (a seller's section does not have that field, so it is not shown).
import { Field, Grid, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { type JSX, useMemo } from 'react';
import { countryList } from '../../../../contracts/domain/iso-codes';
import { checkTaxId } from '../../../../contracts/domain/tax-ids';
import type { SettingsAddress } from '../../../../contracts/settings';
import { SectionFrame } from '../SectionFrame';
import { type SectionForm, SettingField } from '../section-form';
import { CompanyLogoUpload } from './company-logo-upload';
import { SeriesFields } from './company-series';
import { type TaxOptionRow, TaxOptionsTable } from './company-tax-options';
import { NumberSetting, TextSetting } from './text-setting';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const addressParts: {
  key: Exclude<keyof SettingsAddress, 'country'>;
  label: string;
  autoComplete: string;
}[] = [
  { key: 'fullName', label: 'Contact name', autoComplete: 'name' },
  { key: 'email', label: 'E-mail', autoComplete: 'email' },
  { key: 'addressLine1', label: 'Address line 1', autoComplete: 'address-line1' },
  { key: 'addressLine2', label: 'Address line 2', autoComplete: 'address-line2' },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'state', label: 'State or region', autoComplete: 'address-level1' },
  { key: 'zipcode', label: 'Postal code', autoComplete: 'postal-code' },
];

export default function CompanySection(): JSX.Element {
  return (
    <SectionFrame
      section="company"
      description="The company that issues invoices and credit notes: what they print and how they are numbered."
    >
      {(form) => <CompanyFields form={form} />}
    </SectionFrame>
  );
}

function CompanyFields({ form }: { form: SectionForm }) {
  const address = form.value<SettingsAddress>('address');
  const countries = useMemo(() => countryList(), []);
  return (
    <Stack gap="5">
      <TextSetting field="legalName" label="Legal name" maxLength={160} />
      <SettingField field="address" label="Address">
        {(control) => {
          const value = control.value as SettingsAddress;
          const set = (part: keyof SettingsAddress, text: string) =>
            control.onChange({ ...value, [part]: text });
          return (
            <Grid
              id={control.id}
              role="group"
              aria-label="Company address"
              templateColumns={{ base: '1fr', md: '1fr 1fr' }}
              gap="3"
            >
              {addressParts.map((part) => (
                <Field.Root key={part.key} disabled={control.disabled}>
                  <Field.Label fontSize="sm">{part.label}</Field.Label>
                  <Input
                    autoComplete={part.autoComplete}
                    value={value[part.key]}
                    onChange={(event) => set(part.key, event.target.value)}
                  />
                </Field.Root>
              ))}
              <Field.Root disabled={control.disabled}>
                <Field.Label fontSize="sm">Country</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    autoComplete="country"
                    value={value.country}
                    onChange={(event) => set('country', event.target.value)}
                  >
                    <option value="">Choose a country</option>
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
          );
        }}
      </SettingField>
      <SettingField
        field="taxId"
        label={address?.country === 'IN' ? 'Tax id (GSTIN)' : 'Tax id (VAT number)'}
      >
        {(control) => {
          const text = String(control.value ?? '');
          const check = text.trim() && address?.country ? checkTaxId(address.country, text) : null;
          return (
            <Stack gap="1">
              <Input
                id={control.id}
                value={text}
                maxLength={30}
                disabled={control.disabled}
                aria-invalid={check?.ok === false || control.invalid}
                onChange={(event) => control.onChange(event.target.value)}
                fontFamily="mono"
                maxW="24rem"
              />
              {check && !check.ok ? (
                <Text fontSize="sm" color="fg.error">
                  {check.message}
                </Text>
              ) : check?.ok ? (
                <Text fontSize="sm" color="fg.muted">
                  Well-formed {check.kind === 'other' ? 'tax id' : check.kind}: {check.normalised}
                </Text>
              ) : null}
            </Stack>
          );
        }}
      </SettingField>
      <SettingField field="logo" label="Logo">
        {(control) => (
          <CompanyLogoUpload
            id={control.id}
            value={(control.value as string | null) ?? null}
            disabled={control.disabled}
            onChange={control.onChange}
          />
        )}
      </SettingField>
      <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="4">
        <TextSetting field="bankName" label="Bank" maxLength={120} />
        <TextSetting field="bankAccountName" label="Account name" maxLength={120} />
        <TextSetting field="bankAccountNumber" label="Account number" maxLength={40} />
        <TextSetting field="bankCode" label="Bank code (IFSC, BIC)" maxLength={40} />
      </Grid>
      <SettingField
        field="fiscalYearStartMonth"
        label="Fiscal year starts in"
        helperText="April while the marketplace is in India (its financial year), January elsewhere, unless set here."
      >
        {(control) => (
          <NativeSelect.Root disabled={control.disabled} maxW="16rem">
            <NativeSelect.Field
              id={control.id}
              value={String(control.value)}
              onChange={(event) => control.onChange(Number(event.target.value))}
            >
              {MONTHS.map((month, index) => (
                <option key={month} value={index + 1}>
                  {month}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
      </SettingField>
      <SeriesFields form={form} />
      <SettingField field="invoiceFooter" label="Invoice footer">
        {(control) => (
          <Textarea
            id={control.id}
            rows={3}
            maxLength={2000}
            value={String(control.value ?? '')}
            disabled={control.disabled}
            onChange={(event) => control.onChange(event.target.value)}
          />
        )}
      </SettingField>
      <NumberSetting
        field="offerValidityDays"
        label="Offer validity (days)"
        helperText="A new offer is valid this many days, to the end of its last day in the shop's time zone."
        min={1}
        max={365}
      />
      <NumberSetting
        field="offerReminderDays"
        label="Remind the customer (days before an offer ends)"
        helperText="0: no reminder."
        min={0}
        max={60}
      />
      <NumberSetting
        field="invoicePaymentDays"
        label="Invoice payment terms (days)"
        helperText="An issued invoice is due this many days after its date."
        min={0}
        max={365}
      />
      <NumberSetting
        field="invoiceReminderDays"
        label="Remind overdue invoices every (days)"
        helperText="The customer is mailed when an invoice becomes overdue and again every this many days. 0: no reminders."
        min={0}
        max={90}
      />
      <SettingField
        field="taxOptions"
        label="Tax options"
        helperText="The taxes offered when a product or a seller is configured; rates in percent."
      >
        {(control) => (
          <TaxOptionsTable
            id={control.id}
            rows={(control.value as TaxOptionRow[]) ?? []}
            disabled={control.disabled}
            onChange={control.onChange}
          />
        )}
      </SettingField>
    </Stack>
  );
}
