// The contact dialog's form: its values as text, checked with the contract before they are sent, so the
// user reads the same messages the server would answer, beside the fields they concern.
import { type Contact, type ContactInput, contactInputSchema } from '../../../contracts/contacts';
import type { TemplateLanguage } from '../../../contracts/marketing';

export interface ContactFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  companyTypeId: string;
  country: string;
  language: TemplateLanguage;
  /** Comma-separated. */
  tags: string;
  consent: boolean;
}

export const emptyContactForm: ContactFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  company: '',
  companyTypeId: '',
  country: '',
  language: 'EN',
  tags: '',
  consent: false,
};

export const contactFormOf = (contact: Contact): ContactFormValues => ({
  firstName: contact.firstName,
  lastName: contact.lastName,
  email: contact.email,
  phone: contact.phone,
  company: contact.company,
  companyTypeId: contact.companyTypeId ?? '',
  country: contact.country ?? '',
  language: contact.language as TemplateLanguage,
  tags: contact.tags.join(', '),
  consent: contact.consent,
});

export type ContactFormErrors = Partial<Record<keyof ContactFormValues, string>>;

/** The body to send, or the messages by field. */
export function checkContactForm(
  values: ContactFormValues,
): { ok: true; body: ContactInput } | { ok: false; errors: ContactFormErrors } {
  const input = {
    ...values,
    companyTypeId: values.companyTypeId || null,
    country: values.country || null,
    tags: values.tags.split(','),
  };
  const parsed = contactInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: ContactFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'email') as keyof ContactFormValues;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
