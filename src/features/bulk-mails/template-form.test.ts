import { describe, expect, it } from 'vitest';
import { ApiError } from '../../services/api-error';
import {
  firstErrorLanguage,
  formOfTemplate,
  isBlankHtml,
  missingLanguages,
  newTemplateForm,
  serverTemplateErrors,
  type TemplateForm,
  validateTemplateForm,
} from './template-form';

const good = (): TemplateForm => ({
  name: 'Spring offer',
  description: '',
  defaultLanguage: 'EN',
  variants: [
    { language: 'EN', subject: 'Hello {{firstName}}', html: '<p>Dear {{ fullName }}</p>' },
    { language: 'FR', subject: 'Bonjour {{firstName}}', html: '<p>Cher {{company}}</p>' },
  ],
});

describe('the template form', () => {
  it('accepts a template whose variables are all known', () => {
    expect(validateTemplateForm(good())).toEqual({});
  });

  it('names the field of each problem: name, subject and body per language, the default language', () => {
    const form = good();
    form.name = ' ';
    form.defaultLanguage = 'DE';
    form.variants[1] = { language: 'FR', subject: 'Salut {{prenom}}', html: '<p><br></p>' };
    const errors = validateTemplateForm(form);
    expect(errors.name).toBe('Name the template');
    expect(errors.defaultLanguage).toBe('The default language (German) needs a version');
    expect(errors['subject.FR']).toMatch(/^Unknown variable \{\{prenom\}\}\. Use one of \{\{firstName\}\}/);
    expect(errors['html.FR']).toBe('Write the French body.');
    expect(errors['subject.EN']).toBeUndefined();
    expect(firstErrorLanguage(errors, form)).toBe('FR');
  });

  it('accepts a fallback and refuses an empty or unreadable one before saving', () => {
    const form = good();
    form.variants[0] = {
      language: 'EN',
      subject: 'Hi {{firstName|there}}',
      html: '<p>{{company|your company}}</p>',
    };
    expect(validateTemplateForm(form)).toEqual({});
    form.variants[0] = { language: 'EN', subject: 'Hi {{firstName|}}', html: '<p>{{company|a|b}}</p>' };
    expect(validateTemplateForm(form)).toEqual({
      'subject.EN': 'Write what {{firstName|…}} says when a contact has no value, or remove the |.',
      'html.EN': 'The fallback of {{company}} may not contain braces or a second |.',
    });
  });

  it('finds an unknown variable in the body and an empty subject', () => {
    const form = good();
    form.variants[0] = { language: 'EN', subject: '', html: '<p>Hi {{nickname}}</p>' };
    const errors = validateTemplateForm(form);
    expect(errors['subject.EN']).toBe('Write a subject');
    expect(errors['html.EN']).toContain('{{nickname}}');
  });

  it('knows blank HTML from a body with text or an image', () => {
    expect(isBlankHtml('<p>&nbsp;</p>')).toBe(true);
    expect(isBlankHtml('')).toBe(true);
    expect(isBlankHtml('<p>x</p>')).toBe(false);
    expect(isBlankHtml('<img src="https://x/y.png">')).toBe(false);
  });

  it('puts the server’s refusals on their fields', () => {
    const refusal = (code: string, message: string) =>
      new ApiError({ status: 400, code, message, data: { message, code } });
    expect(
      serverTemplateErrors(
        refusal(
          'UNKNOWN_VARIABLE',
          'Unknown variable {{x}} in the French subject. Use one of the listed variables.',
        ),
      ),
    ).toEqual({
      'subject.FR': 'Unknown variable {{x}} in the French subject. Use one of the listed variables.',
    });
    expect(
      serverTemplateErrors(refusal('UNKNOWN_VARIABLE', 'Unknown variable {{x}} in the Hindi body.')),
    ).toEqual({
      'html.HI': 'Unknown variable {{x}} in the Hindi body.',
    });
    expect(serverTemplateErrors(refusal('EMPTY_BODY', 'Write the German body.'))).toEqual({
      'html.DE': 'Write the German body.',
    });
    expect(serverTemplateErrors(refusal('DUPLICATE_TEMPLATE', 'A template is named that'))).toEqual({
      name: 'A template is named that',
    });
    expect(serverTemplateErrors(refusal('STALE_TEMPLATE', 'Sam changed it'))).toEqual({});
    expect(
      serverTemplateErrors(
        new ApiError({ status: 400, code: 'X', message: 'm', data: { fields: { description: 'Too long' } } }),
      ),
    ).toEqual({ description: 'Too long' });
  });

  it('opens a stored template with the default language first, and offers the languages it lacks', () => {
    const form = formOfTemplate({
      id: 't',
      name: 'n',
      description: '',
      defaultLanguage: 'FR',
      version: 1,
      variants: [
        { language: 'EN', subject: 's', html: 'h', text: 'h', variables: [] },
        { language: 'FR', subject: 's', html: 'h', text: 'h', variables: [] },
      ],
      createdByName: '',
      createdAt: '',
      updatedAt: '',
    });
    expect(form.variants.map((variant) => variant.language)).toEqual(['FR', 'EN']);
    expect(missingLanguages(newTemplateForm())).not.toContain('EN');
    expect(missingLanguages(form)).toEqual(['HI', 'DE', 'ES', 'AR', 'PT', 'JA']);
  });
});
