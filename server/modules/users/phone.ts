// A phone number typed by a user, as the users table keeps it: international format with spaces
// ("+91 90000 00003"), like the numbers the voice module allocates (phone-numbers.ts). Numbers compare
// by their digits (users_phone_digits_uq), so the spaces never matter for uniqueness or dialling.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { HttpError } from '../../lib/http-error';

/** The number in international format; 400 when it is not a valid number (a national one reads in `country`). */
export function normalisePhone(text: string, country: string): string {
  const parsed = parsePhoneNumberFromString(text, country as CountryCode);
  if (!parsed?.isValid()) {
    throw new HttpError(
      400,
      'Enter a valid phone number, with its country code (e.g. +91 98765 43210).',
      'PHONE_INVALID',
    );
  }
  return parsed.formatInternational();
}
