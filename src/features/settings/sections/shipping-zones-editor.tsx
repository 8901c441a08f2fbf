// The shipping zones of one scope: each zone's name, countries, currency and weight bands, with rates
// typed as money and kept as minor units. The same schema as the server's checks the draft as it is
// typed (overlapping bands, a negative rate, a country in two zones) and shows each problem at its zone.
import {
  Badge,
  Box,
  Button,
  Card,
  CloseButton,
  Field,
  Grid,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { countryList, countryName, currencyCodesIso } from '../../../../contracts/domain/iso-codes';
import {
  type ShippingZone,
  shippingZonesSchema,
  type WeightBand,
} from '../../../../contracts/domain/shipping-rates';
import { fromMinorUnits, toMinorUnits } from './shipping-money';

const newId = () => `zone-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The live problems of the draft, by zone index ('all' for the list as a whole). */
function zoneProblems(zones: readonly ShippingZone[]): Map<number | 'all', string[]> {
  const problems = new Map<number | 'all', string[]>();
  const parsed = shippingZonesSchema.safeParse(zones);
  if (parsed.success) return problems;
  for (const issue of parsed.error.issues) {
    const key = typeof issue.path[0] === 'number' ? issue.path[0] : 'all';
    const list = problems.get(key) ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    problems.set(key, list);
  }
  return problems;
}

export function ZonesEditor({
  id,
  zones,
  onChange,
  disabled,
  defaultCurrency,
}: {
  id?: string;
  zones: readonly ShippingZone[];
  onChange: (zones: ShippingZone[]) => void;
  disabled: boolean;
  defaultCurrency: string;
}) {
  const problems = useMemo(() => zoneProblems(zones), [zones]);
  const update = (index: number, zone: ShippingZone) =>
    onChange(zones.map((current, i) => (i === index ? zone : current)));
  const add = () =>
    onChange([
      ...zones,
      {
        id: newId(),
        name: `Zone ${zones.length + 1}`,
        countries: [],
        currency: defaultCurrency,
        bands: [{ fromKg: 0, toKg: null, rateMinor: 0 }],
      },
    ]);
  return (
    <Stack gap="3" id={id}>
      {zones.length === 0 ? (
        <Text color="fg.muted">No zones yet: nothing can be shipped at a rate.</Text>
      ) : null}
      {zones.map((zone, index) => (
        <ZoneCard
          key={zone.id}
          zone={zone}
          index={index}
          problems={problems.get(index) ?? []}
          disabled={disabled}
          onChange={(next) => update(index, next)}
          onRemove={() => onChange(zones.filter((_, i) => i !== index))}
        />
      ))}
      {(problems.get('all') ?? []).map((message) => (
        <Text key={message} color="fg.error" fontSize="sm">
          {message}
        </Text>
      ))}
      {disabled ? null : (
        <Box>
          <Button size="sm" variant="outline" onClick={add}>
            <Plus /> Add zone
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function ZoneCard({
  zone,
  index,
  problems,
  disabled,
  onChange,
  onRemove,
}: {
  zone: ShippingZone;
  index: number;
  problems: string[];
  disabled: boolean;
  onChange: (zone: ShippingZone) => void;
  onRemove: () => void;
}) {
  const countries = useMemo(() => countryList(), []);
  const label = zone.name.trim() || `zone ${index + 1}`;
  const setBand = (bandIndex: number, band: WeightBand) =>
    onChange({ ...zone, bands: zone.bands.map((current, i) => (i === bandIndex ? band : current)) });
  const addBand = () => {
    const last = zone.bands.at(-1);
    const from = last ? (last.toKg ?? last.fromKg + 1) : 0;
    onChange({ ...zone, bands: [...zone.bands, { fromKg: from, toKg: null, rateMinor: 0 }] });
  };
  return (
    <Card.Root variant="outline" data-testid={`zone-${index}`}>
      <Card.Body gap="3">
        <HStack gap="3" align="end" wrap="wrap">
          <Field.Root flex="2" minW="12rem">
            <Field.Label>Zone name</Field.Label>
            <Input
              aria-label={`Name of zone ${index + 1}`}
              value={zone.name}
              disabled={disabled}
              onChange={(event) => onChange({ ...zone, name: event.target.value })}
            />
          </Field.Root>
          <Field.Root flex="1" minW="8rem">
            <Field.Label>Currency</Field.Label>
            <NativeSelect.Root disabled={disabled}>
              <NativeSelect.Field
                aria-label={`Currency of ${label}`}
                value={zone.currency}
                onChange={(event) => onChange({ ...zone, currency: event.target.value })}
              >
                {currencyCodesIso.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {disabled ? null : (
            <IconButton aria-label={`Remove ${label}`} variant="ghost" size="sm" onClick={onRemove}>
              <Trash2 />
            </IconButton>
          )}
        </HStack>

        <Stack gap="2">
          <Text fontSize="sm" fontWeight="medium">
            Countries
          </Text>
          <Wrap gap="2" aria-label={`Countries of ${label}`} role="list">
            {zone.countries.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                None yet.
              </Text>
            ) : null}
            {zone.countries.map((code) => (
              <Badge key={code} size="md" variant="subtle" role="listitem" gap="1">
                {countryName(code) ?? code}
                {disabled ? null : (
                  <CloseButton
                    size="2xs"
                    aria-label={`Remove ${countryName(code) ?? code} from ${label}`}
                    onClick={() => onChange({ ...zone, countries: zone.countries.filter((c) => c !== code) })}
                  />
                )}
              </Badge>
            ))}
          </Wrap>
          {disabled ? null : (
            <NativeSelect.Root size="sm" maxW="20rem">
              <NativeSelect.Field
                aria-label={`Add a country to ${label}`}
                value=""
                onChange={(event) => {
                  const code = event.target.value;
                  if (code && !zone.countries.includes(code))
                    onChange({ ...zone, countries: [...zone.countries, code] });
                }}
              >
                <option value="">Add a country…</option>
                {countries
                  .filter((option) => !zone.countries.includes(option.code))
                  .map((option) => (
                    <option key={option.code} value={option.code}>
                      {option.name}
                    </option>
                  ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
        </Stack>

        <Stack gap="2">
          <Text fontSize="sm" fontWeight="medium">
            Rates by chargeable weight
          </Text>
          {zone.bands.map((band, bandIndex) => (
            <BandRow
              // Bands have no id; their position is their identity while editing.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={bandIndex}
              band={band}
              currency={zone.currency}
              label={`${label}, band ${bandIndex + 1}`}
              disabled={disabled}
              onChange={(next) => setBand(bandIndex, next)}
              onRemove={
                zone.bands.length > 1
                  ? () => onChange({ ...zone, bands: zone.bands.filter((_, i) => i !== bandIndex) })
                  : undefined
              }
            />
          ))}
          {disabled ? null : (
            <Box>
              <Button size="xs" variant="ghost" onClick={addBand}>
                <Plus /> Add weight band
              </Button>
            </Box>
          )}
        </Stack>
        {problems.map((message) => (
          <Text key={message} color="fg.error" fontSize="sm" role="alert">
            {message}
          </Text>
        ))}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * A field that keeps what is typed ("2.", "") while the value it stands for is kept by the parent:
 * `onValue` answers the value it reported (as the parent will write it back), so only a change made
 * elsewhere (a reset, a discard) replaces the text.
 */
function useTypedText(value: string, onValue: (text: string) => string | null) {
  const [text, setText] = useState(value);
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (value !== reported.current) setText(value);
    reported.current = null;
  }, [value]);
  return {
    value: text,
    onChange: (event: { target: { value: string } }) => {
      setText(event.target.value);
      reported.current = onValue(event.target.value);
    },
  };
}

function BandRow({
  band,
  currency,
  label,
  disabled,
  onChange,
  onRemove,
}: {
  band: WeightBand;
  currency: string;
  label: string;
  disabled: boolean;
  onChange: (band: WeightBand) => void;
  onRemove?: () => void;
}) {
  const parseKg = (text: string) => {
    const value = Number(text.replace(',', '.'));
    return text.trim() !== '' && Number.isFinite(value) ? value : null;
  };
  const from = useTypedText(String(band.fromKg), (text) => {
    const value = parseKg(text);
    if (value === null) return null;
    onChange({ ...band, fromKg: value });
    return String(value);
  });
  const to = useTypedText(band.toKg === null ? '' : String(band.toKg), (text) => {
    const value = text.trim() === '' ? null : parseKg(text);
    if (value === null && text.trim() !== '') return null;
    onChange({ ...band, toKg: value });
    return value === null ? '' : String(value);
  });
  const [rateInvalid, setRateInvalid] = useState(false);
  const rate = useTypedText(fromMinorUnits(band.rateMinor, currency), (text) => {
    const minor = toMinorUnits(text, currency);
    setRateInvalid(minor === null);
    if (minor === null) return null;
    onChange({ ...band, rateMinor: minor });
    return fromMinorUnits(minor, currency);
  });
  return (
    <Grid templateColumns="1fr 1fr 1.4fr auto" gap="2" alignItems="end">
      <Field.Root>
        <Field.Label fontSize="xs">From (kg)</Field.Label>
        <Input size="sm" inputMode="decimal" aria-label={`${label}: from kg`} disabled={disabled} {...from} />
      </Field.Root>
      <Field.Root>
        <Field.Label fontSize="xs">Up to (kg)</Field.Label>
        <Input
          size="sm"
          inputMode="decimal"
          placeholder="and above"
          aria-label={`${label}: up to kg (empty for and above)`}
          disabled={disabled}
          {...to}
        />
      </Field.Root>
      <Field.Root invalid={rateInvalid || band.rateMinor < 0}>
        <Field.Label fontSize="xs">Rate ({currency})</Field.Label>
        <Input
          size="sm"
          inputMode="decimal"
          aria-label={`${label}: rate in ${currency}`}
          disabled={disabled}
          {...rate}
        />
        <Field.ErrorText>
          {rateInvalid
            ? `An amount in ${currency}, e.g. ${fromMinorUnits(1250, currency)}.`
            : 'A rate may not be negative.'}
        </Field.ErrorText>
      </Field.Root>
      {onRemove && !disabled ? (
        <IconButton aria-label={`Remove ${label}`} size="sm" variant="ghost" onClick={onRemove}>
          <Trash2 />
        </IconButton>
      ) : (
        <Box w="8" />
      )}
    </Grid>
  );
}
