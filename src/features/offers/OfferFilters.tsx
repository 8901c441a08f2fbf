import { DateRangeFields } from '../../ui/date-range-fields';
import { CurrencyFilter, FilterBar, SellerFilter } from '../../ui/filter-bar';
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
      <CurrencyFilter
        id="offer-filter-currency"
        value={view.currency}
        onChange={(currency) => onChange({ currency })}
      />
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
    </FilterBar>
  );
}
