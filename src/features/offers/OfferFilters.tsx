import { Field, NativeSelect } from '@chakra-ui/react';
import { useClientSettings } from '../../services/client-settings';
import { DateRangeFields } from '../../ui/date-range-fields';
import { FilterBar, SellerFilter } from '../../ui/filter-bar';
import { type OfferFilters as Filters, hasFilters, noFilters } from './url-state';

/**
 * Seller (admins and staff), currency (one the settings offer) and the requested range; every change
 * goes to the URL and back to page 1 (the caller's part).
 */
export function OfferFilters({
  view,
  showSeller,
  rangeError,
  onChange,
}: {
  view: Filters;
  showSeller: boolean;
  rangeError: string | null;
  onChange: (patch: Partial<Filters>) => void;
}) {
  const currencies = useClientSettings().data?.currencies ?? [];
  const options =
    view.currency && !currencies.includes(view.currency) ? [...currencies, view.currency] : currencies;
  return (
    <FilterBar
      label="Filter offer requests"
      tour="offer-filters"
      active={hasFilters(view)}
      onClear={() => onChange(noFilters)}
    >
      {showSeller ? (
        <SellerFilter
          id="offer-filter-seller"
          value={view.sellerId}
          onChange={(sellerId) => onChange({ sellerId })}
        />
      ) : null}
      <Field.Root width={{ base: 'full', md: '40' }}>
        <Field.Label htmlFor="offer-filter-currency">Currency</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            id="offer-filter-currency"
            value={view.currency ?? ''}
            onChange={(event) => onChange({ currency: event.target.value || null })}
          >
            <option value="">All currencies</option>
            {options.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
    </FilterBar>
  );
}
