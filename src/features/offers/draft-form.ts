// The draft editor's form: what a person types (prices as decimals, quantities as text) and the draft
// body the server prices. Prices become minor units by string arithmetic (money.ts); every total is the
// server's. The form starts from the saved draft, else the last sent version, else the request.
import type { OfferChoices, OfferDetail, OfferDraftBody, OfferPricing } from '../../../contracts/offers';
import { decimalOf, minorOf } from '../../lib/money';

export type DiscountKind = 'none' | 'percent' | 'amount';

export interface BreakForm {
  key: number;
  minQuantity: string;
  price: string;
}

export interface LineForm {
  key: number;
  productId: string | null;
  name: string;
  sku: string;
  quantity: string;
  price: string;
  breaks: BreakForm[];
  discountKind: DiscountKind;
  discount: string;
  taxOptionId: string;
}

export interface DraftForm {
  currency: string;
  shippingCountry: string;
  validUntil: string;
  notes: string;
  lines: LineForm[];
}

let keys = 0;
export const nextLineKey = () => ++keys;

export const emptyLine = (): LineForm => ({
  key: nextLineKey(),
  productId: null,
  name: '',
  sku: '',
  quantity: '1',
  price: '',
  breaks: [],
  discountKind: 'none',
  discount: '',
  taxOptionId: '',
});

function linesOf(pricing: OfferPricing): LineForm[] {
  const { currency } = pricing;
  return pricing.lines.map((line) => ({
    key: nextLineKey(),
    productId: line.productId,
    name: line.name,
    sku: line.sku,
    quantity: String(line.quantity),
    price: decimalOf(line.listUnitPriceMinor, currency),
    breaks: line.quantityBreaks.map((b) => ({
      key: nextLineKey(),
      minQuantity: String(b.minQuantity),
      price: decimalOf(b.unitPriceMinor, currency),
    })),
    discountKind: line.discountPercent !== null ? 'percent' : line.discountMinor !== null ? 'amount' : 'none',
    discount:
      line.discountPercent !== null
        ? String(line.discountPercent)
        : line.discountMinor !== null
          ? decimalOf(line.discountMinor, currency)
          : '',
    taxOptionId: line.taxOptionId ?? '',
  }));
}

/** The editor's starting point: the saved draft, else the last sent version, else the request. */
export function initialForm(offer: OfferDetail): DraftForm {
  const choices: OfferChoices = offer.choices;
  const source = offer.draft ?? offer.lastSent;
  if (source) {
    return {
      currency: source.currency,
      shippingCountry: source.shippingCountry ?? choices.shippingCountry ?? '',
      // An expired version's validity would be refused again: a reopening starts from the default.
      validUntil: !offer.draft && offer.status === 'expired' ? choices.defaultValidUntil : source.validUntil,
      notes: source.notes,
      lines: linesOf(source),
    };
  }
  return {
    currency: choices.defaultCurrency,
    shippingCountry: choices.shippingCountry ?? '',
    validUntil: choices.defaultValidUntil,
    notes: '',
    lines: offer.requestedItems.length
      ? offer.requestedItems.map((item) => ({
          ...emptyLine(),
          productId: item.productId || null,
          name: item.name,
          quantity: String(item.quantity),
        }))
      : [emptyLine()],
  };
}

export type FormErrors = Record<string, string>;

const wholeNumber = (text: string) => (/^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : null);

/** The draft body of the form, or the problems by field ("lines.0.price", "validUntil"…). */
export function draftBodyOf(form: DraftForm): { body: OfferDraftBody } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const { currency } = form;
  const lines = form.lines.map((line, index) => {
    const at = `lines.${index}`;
    if (!line.name.trim()) errors[`${at}.name`] = 'Give every line a name.';
    const quantity = wholeNumber(line.quantity);
    if (quantity === null || quantity < 1)
      errors[`${at}.quantity`] = 'A quantity is a whole number, 1 or more.';
    const price = minorOf(line.price, currency);
    if (typeof price === 'string') errors[`${at}.price`] = price;
    const quantityBreaks = line.breaks.map((b, n) => {
      const min = wholeNumber(b.minQuantity);
      const unit = minorOf(b.price, currency);
      if (min === null || min < 1)
        errors[`${at}.breaks.${n}.minQuantity`] = 'From a whole quantity, 1 or more.';
      if (typeof unit === 'string') errors[`${at}.breaks.${n}.price`] = unit;
      return { minQuantity: min ?? 1, unitPriceMinor: typeof unit === 'number' ? unit : 0 };
    });
    let discountPercent: number | null = null;
    let discountMinor: number | null = null;
    if (line.discountKind === 'percent') {
      const text = line.discount.trim();
      if (!/^\d{1,3}(?:\.\d{1,2})?$/.test(text) || Number(text) > 100)
        errors[`${at}.discount`] = 'A percent from 0 to 100, two decimals at most.';
      else discountPercent = Number(text);
    } else if (line.discountKind === 'amount') {
      const amount = minorOf(line.discount, currency);
      if (typeof amount === 'string') errors[`${at}.discount`] = amount;
      else discountMinor = amount;
    }
    return {
      productId: line.productId,
      name: line.name.trim(),
      sku: line.sku.trim(),
      quantity: quantity ?? 1,
      unitPriceMinor: typeof price === 'number' ? price : 0,
      quantityBreaks,
      discountPercent,
      discountMinor,
      taxOptionId: line.taxOptionId || null,
    };
  });
  if (lines.length === 0) errors.lines = 'Add at least one line.';
  const country = form.shippingCountry.trim().toUpperCase();
  if (country && !/^[A-Z]{2}$/.test(country))
    errors.shippingCountry = 'A country is a two-letter code, e.g. DE.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.validUntil))
    errors.validUntil = 'Choose the last day the offer is valid.';
  if (Object.keys(errors).length) return { errors };
  return {
    body: {
      lines,
      currency,
      shippingCountry: country || null,
      validUntil: form.validUntil,
      notes: form.notes.trim(),
    },
  };
}
