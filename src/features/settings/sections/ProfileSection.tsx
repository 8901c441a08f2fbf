// Settings → Profile (issue 29 §1): your own record (users/{id}) — name, phone, picture, password, and
// your own default country, language and currency, each of which may inherit the marketplace's
// Localization. Saving updates the header and tells your other tabs (SETTINGS_CHANGED for you).
import { Button, Field, Heading, HStack, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { type FormEvent, type JSX, useEffect, useMemo, useState } from 'react';
import { countryList, countryName } from '../../../../contracts/domain/iso-codes';
import type { UserRecord } from '../../../../contracts/users';
import { getErrorMessage } from '../../../services/http';
import { currentUserQuery } from '../../../services/session-queries';
import { FormMessage } from '../../../ui/form-parts';
import { OptionSelect } from '../../../ui/option-select';
import { ErrorState, LoadingState } from '../../../ui/page-states';
import { useSaveProfile, useUserRecord } from './profile-api';
import { ProfileAvatar } from './profile-avatar';
import { ProfilePassword } from './profile-password';

// "Inherit from the marketplace": the blank first choice of OptionSelect, saved as null.
const INHERIT = '';
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
const languageLabel = (code: string) => `${languageNames.of(code.toLowerCase())} (${code})`;

/** The number as the server keeps it ("+91 98765 43210") once it reads as one; as typed otherwise. */
export function formatPhone(text: string, country: string): string {
  const parsed = parsePhoneNumberFromString(
    text,
    country as Parameters<typeof parsePhoneNumberFromString>[1],
  );
  return parsed?.isValid() ? parsed.formatInternational() : text.trim();
}

interface Draft {
  firstName: string;
  lastName: string;
  phone: string;
  defaultCountry: string;
  defaultLanguage: string;
  defaultCurrency: string;
}

const draftOf = (record: UserRecord): Draft => ({
  firstName: record.firstName,
  lastName: record.lastName,
  phone: record.phone,
  defaultCountry: record.defaultCountry ?? INHERIT,
  defaultLanguage: record.defaultLanguage ?? INHERIT,
  defaultCurrency: record.defaultCurrency ?? INHERIT,
});

export default function ProfileSection(): JSX.Element {
  const me = useQuery(currentUserQuery());
  const record = useUserRecord(me.data?.id);
  return (
    <Stack gap="6" maxW="3xl">
      <Stack gap="1">
        <Heading as="h2" size="lg">
          Profile
        </Heading>
        <Text color="fg.muted">Your name, phone, picture and password, and your own defaults.</Text>
      </Stack>
      {record.isError ? (
        <ErrorState message={getErrorMessage(record.error)} onRetry={() => record.refetch()} />
      ) : !record.data ? (
        <LoadingState rows={5} label="Loading your profile" />
      ) : (
        <>
          <ProfileAvatar
            name={`${record.data.firstName} ${record.data.lastName}`.trim() || record.data.email}
            avatar={record.data.avatar}
          />
          <ProfileForm record={record.data} />
          <Separator />
          <ProfilePassword userId={record.data.id} />
        </>
      )}
    </Stack>
  );
}

function ProfileForm({ record }: { record: UserRecord }) {
  const save = useSaveProfile(record.id);
  const [draft, setDraft] = useState<Draft>(() => draftOf(record));
  const [saved, setSaved] = useState(false);
  // Another tab's save (SETTINGS_CHANGED) refetches the record: show it.
  useEffect(() => setDraft(draftOf(record)), [record]);
  const market = record.marketplace;
  const countries = useMemo(() => countryList(), []);
  const set = (field: keyof Draft) => (value: string) => {
    setSaved(false);
    setDraft((current) => ({ ...current, [field]: value }));
  };
  const phoneCountry = draft.defaultCountry || market.defaultCountry;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const phone = formatPhone(draft.phone, phoneCountry);
    setDraft((current) => ({ ...current, phone }));
    save.mutate(
      {
        firstName: draft.firstName,
        lastName: draft.lastName,
        phone,
        defaultCountry: draft.defaultCountry || null,
        defaultLanguage: draft.defaultLanguage || null,
        defaultCurrency: draft.defaultCurrency || null,
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const select = (
    field: 'defaultCountry' | 'defaultLanguage' | 'defaultCurrency',
    label: string,
    inherited: string,
    options: { value: string; label: string }[],
  ) => (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <OptionSelect
        blank={`Inherit from the marketplace (${inherited})`}
        options={options}
        value={draft[field]}
        onChange={set(field)}
      />
    </Field.Root>
  );

  return (
    <Stack as="form" gap="4" onSubmit={submit} aria-labelledby="profile-details-heading">
      <Heading as="h3" size="md" id="profile-details-heading">
        Details
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Signed in as {record.email}
      </Text>
      <HStack gap="4" align="start" wrap={{ base: 'wrap', md: 'nowrap' }}>
        <Field.Root required>
          <Field.Label>First name</Field.Label>
          <Input
            name="firstName"
            autoComplete="given-name"
            maxLength={100}
            value={draft.firstName}
            onChange={(event) => set('firstName')(event.target.value)}
          />
        </Field.Root>
        <Field.Root>
          <Field.Label>Last name</Field.Label>
          <Input
            name="lastName"
            autoComplete="family-name"
            maxLength={100}
            value={draft.lastName}
            onChange={(event) => set('lastName')(event.target.value)}
          />
        </Field.Root>
      </HStack>
      <Field.Root required>
        <Field.Label>Phone</Field.Label>
        <Input
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={30}
          value={draft.phone}
          onChange={(event) => set('phone')(event.target.value)}
          onBlur={() => set('phone')(formatPhone(draft.phone, phoneCountry))}
        />
        <Field.HelperText>With its country code; a national number reads as {phoneCountry}.</Field.HelperText>
      </Field.Root>
      {select(
        'defaultCountry',
        'Default country',
        countryName(market.defaultCountry) ?? market.defaultCountry,
        countries.map((country) => ({ value: country.code, label: country.name })),
      )}
      {select(
        'defaultLanguage',
        'Default language',
        languageLabel(market.defaultLanguage),
        market.languages.map((code) => ({ value: code, label: languageLabel(code) })),
      )}
      {select(
        'defaultCurrency',
        'Default currency',
        market.defaultCurrency,
        market.currencies.map((code) => ({ value: code, label: code })),
      )}
      <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
      <FormMessage status="success">{saved ? 'Your profile is saved.' : null}</FormMessage>
      <Button
        type="submit"
        alignSelf="start"
        colorPalette="brand"
        loading={save.isPending}
        loadingText="Saving"
      >
        Save profile
      </Button>
    </Stack>
  );
}
