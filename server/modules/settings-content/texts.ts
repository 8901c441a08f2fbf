// Settings → Content: texts per language, stored as sanitised HTML (sanitised when saved, by the mail
// templates' policy: formatting and https links, never script). A text is read in the wanted language,
// else English, else empty (the caller's built-in text).
import type { AllSettings } from '../../../contracts/settings';
import { plainTextOf, sanitizeTemplateHtml } from '../mail-templates/render';

export type LocalizedHtml = Record<string, string>;

/** The bot's texts as help-chats/bot.ts takes them (plain text; empty for the built-in text). */
export interface BotTexts {
  welcome: string;
  generalReply: string;
}

/** The fields of the content section that hold HTML per language. */
export const CONTENT_HTML_FIELDS = [
  'botWelcome',
  'botGeneralReply',
  'enquiryIntro',
  'unsubscribeText',
  'responsePageText',
] as const;

/** Each language's HTML sanitised; an empty editor ("<p></p>") stored as empty. */
export function sanitizeLocalizedHtml(texts: LocalizedHtml): LocalizedHtml {
  return Object.fromEntries(
    Object.entries(texts).map(([language, html]) => {
      const clean = sanitizeTemplateHtml(html).trim();
      return [language, plainTextOf(clean) === '' ? '' : clean];
    }),
  );
}

/** The content section's values as stored: every HTML field sanitised, the rest as given. */
export function sanitizeContentValues(values: Record<string, unknown>): Record<string, unknown> {
  const clean = { ...values };
  for (const field of CONTENT_HTML_FIELDS) {
    const texts = clean[field];
    if (texts && typeof texts === 'object') clean[field] = sanitizeLocalizedHtml(texts as LocalizedHtml);
  }
  return clean;
}

/** The text in `language` (an ISO 639-1 code, any case), else English, else empty. */
export function localizedHtml(texts: LocalizedHtml, language: string | undefined): string {
  const wanted = (language ?? '').slice(0, 2).toUpperCase();
  return (wanted && texts[wanted]) || texts.EN || '';
}

/** The first language of an Accept-Language header ("de-DE,de;q=0.9" → "DE"). */
export function requestLanguage(acceptLanguage: string | undefined): string | undefined {
  const first = acceptLanguage?.split(',')[0]?.trim().slice(0, 2);
  return first && /^[a-z]{2}$/i.test(first) ? first.toUpperCase() : undefined;
}

/** The bot's texts as plain text (the widget shows chat messages as text, never HTML). */
export function botTextsOf(content: AllSettings['content'], language: string | undefined): BotTexts {
  const text = (texts: LocalizedHtml) => {
    const html = localizedHtml(texts, language);
    return html ? plainTextOf(html) : '';
  };
  return { welcome: text(content.botWelcome), generalReply: text(content.botGeneralReply) };
}
