// The words a campaign mail adds around the template (the footer, the unsubscribe link, the line above
// the answer buttons), in every language a template can be written in (contracts/marketing.ts
// templateLanguages), so a French version is French to its last line. Arabic is written right to left.
import type { TemplateLanguage } from '../../../contracts/marketing';

export interface MailTexts {
  /** Why the recipient gets the mail. */
  footer: string;
  /** The unsubscribe link's text (and the plain-text part's label). */
  unsubscribe: string;
  /** Above the answer buttons. */
  answerPrompt: string;
  direction: 'ltr' | 'rtl';
}

const texts: Record<TemplateLanguage, MailTexts> = {
  EN: {
    footer: 'You receive this mail because you are in our marketing contacts.',
    unsubscribe: 'Unsubscribe',
    answerPrompt: 'Answer with one click:',
    direction: 'ltr',
  },
  HI: {
    footer: 'आपको यह ईमेल इसलिए मिला है क्योंकि आप हमारे मार्केटिंग संपर्कों में शामिल हैं।',
    unsubscribe: 'सदस्यता छोड़ें',
    answerPrompt: 'एक क्लिक में जवाब दें:',
    direction: 'ltr',
  },
  FR: {
    footer: 'Vous recevez cet e-mail parce que vous faites partie de nos contacts marketing.',
    unsubscribe: 'Se désabonner',
    answerPrompt: 'Répondez en un clic :',
    direction: 'ltr',
  },
  DE: {
    footer: 'Sie erhalten diese E-Mail, weil Sie zu unseren Marketing-Kontakten gehören.',
    unsubscribe: 'Abmelden',
    answerPrompt: 'Antworten Sie mit einem Klick:',
    direction: 'ltr',
  },
  ES: {
    footer: 'Recibe este correo porque forma parte de nuestros contactos de marketing.',
    unsubscribe: 'Darse de baja',
    answerPrompt: 'Responda con un clic:',
    direction: 'ltr',
  },
  AR: {
    footer: 'تصلك هذه الرسالة لأنك من جهات الاتصال التسويقية لدينا.',
    unsubscribe: 'إلغاء الاشتراك',
    answerPrompt: 'أجب بنقرة واحدة:',
    direction: 'rtl',
  },
  PT: {
    footer: 'Você recebe este e-mail porque faz parte dos nossos contatos de marketing.',
    unsubscribe: 'Cancelar inscrição',
    answerPrompt: 'Responda com um clique:',
    direction: 'ltr',
  },
  JA: {
    footer: 'マーケティングの連絡先にご登録いただいているため、このメールをお送りしています。',
    unsubscribe: '配信停止',
    answerPrompt: 'ワンクリックでご回答ください：',
    direction: 'ltr',
  },
};

/** The texts of a template language; English for a language this list does not know (yet). */
export function mailTextsOf(language: string): MailTexts {
  return texts[language as TemplateLanguage] ?? texts.EN;
}

/**
 * The answers as a version in `language` shows them: the campaign's wording for that language when
 * given (same order, same number), its answers otherwise. The link always carries the answer itself,
 * so every language's answers count together.
 */
export function answerLabelsOf(
  options: readonly string[],
  labels: Partial<Record<string, readonly string[]>>,
  language: string,
): string[] {
  const translated = labels[language];
  return options.map((option, index) => translated?.[index]?.trim() || option);
}
