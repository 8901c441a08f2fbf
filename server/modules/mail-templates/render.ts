// Turning a template's version into a mail for one contact. The stored HTML is already sanitised (on
// save, sanitizeTemplateHtml); variables are replaced by the contact's values HTML-escaped, so a
// contact named "<script>" reads as text in every client. The plain-text part is generated from the HTML.
import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';
import {
  type RenderedMail,
  type TemplateValues,
  templateVariables,
  VARIABLE_PATTERN,
} from '../../../contracts/mail-templates';
import { escapeHtml } from '../../lib/escape-html';

/**
 * What a mail body may hold: the rich-text editor's formatting, links and images by https URL. No
 * script, style, form, iframe or event handler; links open outside the mail client's frame.
 */
const MAIL_HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'a',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'code',
    'pre',
    'hr',
    'img',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'td',
    'th',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
};

export const sanitizeTemplateHtml = (html: string) => sanitizeHtml(html, MAIL_HTML_POLICY);

/** The plain-text part of an HTML body (links as "text [url]", lists and paragraphs kept). */
export function plainTextOf(html: string): string {
  return convert(html, {
    wordwrap: 100,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      // html-to-text upper-cases headings by default, which would also upper-case {{variables}} (they
      // are filled after this runs) and leave them unfilled: keep the author's case.
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
    ],
  }).trim();
}

const known = new Set<string>(templateVariables);

/**
 * The text of a fallback as it stands in stored HTML: the sanitiser wrote `&` as `&amp;` (and the editor
 * may write `&nbsp;`), so it is read back to text before being escaped once, like a value.
 */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#x27': "'",
  nbsp: ' ',
};
export function htmlTextOf(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/**
 * Replaces {{variables}}: the contact's value, or the fallback (`{{company|your company}}`) when the
 * value is empty. `write` writes each for its context (HTML or plain text); `source` reads a fallback
 * from the text it stands in (HTML in the body, plain text elsewhere). Both are user text, written as text.
 */
function fill(
  text: string,
  values: TemplateValues,
  write: (value: string) => string,
  source: (fallback: string) => string = (fallback) => fallback,
): string {
  return text.replace(VARIABLE_PATTERN, (whole, name: string, fallback: string | undefined) => {
    if (!known.has(name)) return whole;
    const value = values[name as keyof TemplateValues] ?? '';
    if (value.trim() || fallback === undefined) return write(value);
    // The plain-text part may have wrapped a long fallback over two lines.
    return write(source(fallback).replace(/\s+/g, ' ').trim());
  });
}

/** One contact's mail from a stored (sanitised) version of a template. */
export function renderTemplate(
  variant: { subject: string; html: string; text: string },
  values: TemplateValues,
): RenderedMail {
  // A subject is a header, not HTML: line breaks would let a value add headers of its own.
  const headerSafe = (value: string) => value.replace(/[\r\n]+/g, ' ');
  return {
    subject: headerSafe(fill(variant.subject, values, headerSafe)),
    html: fill(variant.html, values, escapeHtml, htmlTextOf),
    text: fill(variant.text, values, (value) => value),
  };
}
