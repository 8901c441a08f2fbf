// One campaign mail as it leaves: the template's version rendered for the contact, the personal
// unsubscribe footer and the answer links in that version's language (mail-texts.ts) when the campaign asks for responses, the RFC 8058 one-click
// headers and a Message-ID fixed by the recipient's message key. The send job and the test mail both
// build their mails here, so a test mail is what recipients get.
import type { TemplateValues } from '../../../contracts/mail-templates';
import { escapeHtml } from '../../lib/escape-html';
import type { Mail } from '../../plugins/mail';
import type { MailLinks } from '../mail-links/links';
import { renderTemplate } from '../mail-templates/render';
import { answerLabelsOf, mailTextsOf } from './mail-texts';

export interface StoredVariant {
  language: string;
  subject: string;
  html: string;
  text: string;
}

export interface ComposeContext {
  links: MailLinks;
  campaignId: string;
  responseOptions: string[];
  /** The answers' wording per template language (campaigns.response_labels). */
  responseLabels: Partial<Record<string, string[]>>;
  /** The address the mail goes out from (`mailer.senderAddress()`): the List-Unsubscribe mailto goes there. */
  fromAddress: string;
  /** Message-IDs are `<key>@<host>`: the public URL's host. */
  messageIdHost: string;
}

export function composeCampaignMail(
  context: ComposeContext,
  variant: StoredVariant,
  recipient: { email: string; values: TemplateValues; messageKey: string },
): Mail {
  const rendered = renderTemplate(variant, recipient.values);
  const { links } = context;
  const words = mailTextsOf(variant.language);
  const dir = words.direction === 'rtl' ? ' dir="rtl"' : '';
  const unsubscribe = links.unsubscribeUrl(recipient.email);
  const labels = answerLabelsOf(context.responseOptions, context.responseLabels, variant.language);
  const answers = context.responseOptions.map((answer, index) => ({
    label: labels[index] ?? answer,
    url: links.responseUrl(recipient.email, context.campaignId, answer),
  }));
  const answerHtml = answers.length
    ? `<p${dir} style="margin:24px 0 8px">${escapeHtml(words.answerPrompt)}</p><p${dir} style="margin:0 0 8px">${answers
        .map(
          ({ label, url }) =>
            `<a href="${escapeHtml(url)}" style="display:inline-block;margin:0 8px 8px 0;padding:8px 16px;border:1px solid #2b6cb0;border-radius:6px;color:#2b6cb0;text-decoration:none">${escapeHtml(label)}</a>`,
        )
        .join('')}</p>`
    : '';
  const footerHtml = `<hr style="margin-top:32px;border:none;border-top:1px solid #ddd"><p${dir} style="font-size:12px;color:#666">${escapeHtml(words.footer)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(words.unsubscribe)}</a></p>`;
  const answerText = answers.length
    ? `\n\n${words.answerPrompt}\n${answers.map(({ label, url }) => `${label}: ${url}`).join('\n')}`
    : '';
  return {
    to: recipient.email,
    subject: rendered.subject,
    html: `${rendered.html}${answerHtml}${footerHtml}`,
    text: `${rendered.text}${answerText}\n\n--\n${words.footer}\n${words.unsubscribe}: ${unsubscribe}\n`,
    messageId: `${recipient.messageKey}@${context.messageIdHost}`,
    key: recipient.messageKey,
    headers: {
      'List-Unsubscribe': `<${links.oneClickUnsubscribeUrl(recipient.email)}>, <mailto:${context.fromAddress}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
