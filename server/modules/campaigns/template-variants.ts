// A campaign template's language versions, as the send job and the test mail compose from them.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailTemplateVariants } from '../../db/schema';
import type { StoredVariant } from './compose';

/** The template's versions by language. */
export async function templateVariants(db: Db, templateId: string): Promise<Map<string, StoredVariant>> {
  const rows = await db
    .select({
      language: mailTemplateVariants.language,
      subject: mailTemplateVariants.subject,
      html: mailTemplateVariants.html,
      text: mailTemplateVariants.text,
    })
    .from(mailTemplateVariants)
    .where(eq(mailTemplateVariants.templateId, templateId));
  return new Map(rows.map((row) => [row.language, row]));
}

/** The recipient's language, else the campaign's fallback, else any version. */
export const variantFor = (
  variants: Map<string, StoredVariant>,
  language: string | undefined,
  fallback: string,
): StoredVariant | undefined =>
  (language === undefined ? undefined : variants.get(language)) ??
  variants.get(fallback) ??
  [...variants.values()][0];
