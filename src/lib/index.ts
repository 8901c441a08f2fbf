export {
  type CurrencyCode,
  currencyCodes,
  currencySymbol,
  currencySymbols,
  formatMoney,
  isCurrencyCode,
} from '../../contracts/domain/currency';
export {
  configureFormats,
  type DateValue,
  formatDate,
  formatDateTime,
  formatMonth,
  formatNumber,
  formatPercent,
  formatTime,
  isSingular,
  plural,
} from '../../contracts/domain/format';
export {
  type TaxCountry,
  type TaxOption,
  taxCountries,
  taxOptionById,
  taxOptions,
  taxOptionsFor,
} from '../../contracts/domain/tax-options';
export {
  isSingleWord,
  isValidUrl,
  MAX_URL_LENGTH,
  type NumericRange,
  parseRange,
  rangeSchema,
  singleWordSchema,
  urlSchema,
  validationMessages,
} from '../../contracts/domain/validators';
export {
  CM_PER_UNIT,
  type LengthUnit,
  type ParcelDimensions,
  VOLUMETRIC_DIVISOR,
  volumetricWeight,
} from '../../contracts/domain/volumetric-weight';
export { formatCallDuration } from './call-duration';
export { checkFile, DOCUMENT_ACCEPT, formatBytes, LOGO_ACCEPT } from './file-limits';
export { type DateInput, relativeTime } from './relative-time';
export { type StatusPalette, statusColor } from './status-color';
