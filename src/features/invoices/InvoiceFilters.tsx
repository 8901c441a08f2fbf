import { Field } from '@chakra-ui/react';
import { invoiceKinds } from '../../../contracts/domain/invoice-state';
import { DateRangeFields } from '../../ui/date-range-fields';
import { CurrencyFilter, FilterBar, SellerFilter } from '../../ui/filter-bar';
import { OptionSelect } from '../../ui/option-select';
import { invoiceKindLabels } from './InvoiceTable';
import { type InvoiceFilters as Filters, hasFilters, noFilters } from './url-state';

/** Seller (admins and staff), kind, currency and the issued range; every change goes to the URL. */
export function InvoiceFilters({
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
      label="Filter invoices"
      tour="invoice-filters"
      active={hasFilters(view)}
      onClear={() => onChange(noFilters)}
    >
      {showSeller ? (
        <SellerFilter
          id="invoice-filter-seller"
          value={view.sellerId}
          onChange={(sellerId) => onChange({ sellerId })}
        />
      ) : null}
      <Field.Root width={{ base: 'full', md: '44' }}>
        <Field.Label htmlFor="invoice-filter-kind">Kind</Field.Label>
        <OptionSelect
          id="invoice-filter-kind"
          blank="Invoices and credit notes"
          value={view.kind ?? ''}
          options={invoiceKinds.map((kind) => ({ value: kind, label: invoiceKindLabels[kind] }))}
          onChange={(value) => onChange({ kind: (value || null) as Filters['kind'] })}
        />
      </Field.Root>
      <CurrencyFilter
        id="invoice-filter-currency"
        value={view.currency}
        onChange={(currency) => onChange({ currency })}
      />
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
    </FilterBar>
  );
}
