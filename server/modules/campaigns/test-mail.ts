// POST /:id/testMail: the campaign's mail as a recipient would get it, sent to the signed-in user's own
// address with "[Test]" before the subject. The user's values are theirs if they are a contact, else the
// preview's sample contact. Nothing about recipients is written: a test mail is no delivery, and its
// unsubscribe and answer links only say so.
import { eq } from 'drizzle-orm';
import { sampleTemplateValues } from '../../../contracts/mail-templates';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { Mailer } from '../../plugins/mail';
import { createTestMailLinks } from '../mail-links/links';
import { contactValues } from '../mail-templates/values';
import { campaignNotFound, readCampaign } from './campaigns';
import { composeCampaignMail } from './compose';
import { classifyError } from './send-job';
import { messageKeyPrefix } from './sending';
import { templateVariants, variantFor } from './template-variants';

export async function sendTestMail(
  db: Db,
  deps: { mailer: Mailer; publicUrl: string },
  campaignId: string,
  userId: string,
): Promise<{ message: string }> {
  const campaign = await readCampaign(db, campaignId).catch(() => {
    throw campaignNotFound();
  });
  if (!campaign.templateId)
    throw new HttpError(400, 'Choose a template: the campaign’s template was deleted.', 'NO_TEMPLATE');
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(404, 'Your account was not found.', 'NOT_FOUND');
  const contact = await contactValues(db, { email: user.email });
  const variants = await templateVariants(db, campaign.templateId);
  const variant = variantFor(variants, contact?.language, campaign.fallbackLanguage);
  if (!variant) throw new HttpError(400, 'The campaign’s template has no version to send.', 'NO_TEMPLATE');
  const mail = composeCampaignMail(
    {
      // Links that open the pages but change nothing: the author is no recipient.
      links: createTestMailLinks(deps.publicUrl),
      campaignId,
      responseOptions: campaign.responseOptions,
      responseLabels: campaign.responseLabels,
      fromAddress: await deps.mailer.senderAddress(),
      messageIdHost: new URL(deps.publicUrl).hostname || 'marketplace.local',
    },
    variant,
    {
      email: user.email,
      values: contact?.values ?? { ...sampleTemplateValues, email: user.email },
      // A key of its own for each test: never the file a real recipient's mail is written to.
      messageKey: `${messageKeyPrefix(campaignId)}test-${Date.now().toString(36)}`,
    },
  );
  try {
    await deps.mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
  } catch (error) {
    throw new HttpError(
      502,
      `The mail server refused the test mail: ${classifyError(error).reason}`,
      'MAIL_REFUSED',
    );
  }
  return { message: `A test mail was sent to ${user.email}.` };
}
