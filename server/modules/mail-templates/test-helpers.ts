// Templates the marketing tests create.
import type { TemplateInput } from '../../../contracts/mail-templates';

/** An English and a French version, with variables in both. */
export const twoLanguageTemplate = (name: string): TemplateInput => ({
  name,
  description: 'Spring offer',
  defaultLanguage: 'EN',
  variants: [
    { language: 'EN', subject: 'Hello {{firstName}}', html: '<p>Dear {{fullName}} of {{company}},</p>' },
    { language: 'FR', subject: 'Bonjour {{ firstName }}', html: '<p>Cher {{fullName}}</p>' },
  ],
});
