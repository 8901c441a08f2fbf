import { Field } from '@chakra-ui/react';
import { paymentStateLabels, paymentStates } from '../../../contracts/domain/order-state';
import { DateRangeFields } from '../../ui/date-range-fields';
import { CurrencyFilter, FilterBar, SellerFilter } from '../../ui/filter-bar';
import { OptionSelect } from '../../ui/option-select';
import { type OrderFilters as Filters, hasFilters, noFilters } from './url-state';

/** Seller (admins and staff), payment state, currency and the placed range; every change goes to the URL. */
export function OrderFilters({
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
      label="Filter orders"
      tour="order-filters"
      active={hasFilters(view)}
      onClear={() => onChange(noFilters)}
    >
      {showSeller ? (
        <SellerFilter
          id="order-filter-seller"
          value={view.sellerId}
          onChange={(sellerId) => onChange({ sellerId })}
        />
      ) : null}
      <Field.Root width={{ base: 'full', md: '44' }}>
        <Field.Label htmlFor="order-filter-payment">Payment</Field.Label>
        <OptionSelect
          id="order-filter-payment"
          blank="Any payment state"
          value={view.paymentState ?? ''}
          options={paymentStates.map((state) => ({ value: state, label: paymentStateLabels[state] }))}
          onChange={(value) => onChange({ paymentState: (value || null) as Filters['paymentState'] })}
        />
      </Field.Root>
      <CurrencyFilter
        id="order-filter-currency"
        value={view.currency}
        onChange={(currency) => onChange({ currency })}
      />
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
    </FilterBar>
  );
}
