// Which unsubscribes a campaign is credited with: one definition for the campaigns list, the campaign
// page and its "Unsubscribes" tab, and the dashboard's rates, so one campaign never shows two numbers.
import { sql } from 'drizzle-orm';

/**
 * A recipient `r` (campaign_recipients) whose contact `c` (contacts) left because of that mail: they
 * were mailed, are unsubscribed now, and left after this mail and before any later campaign's mail
 * reached them. A contact who leaves is counted for the last campaign that mailed them, once, and the
 * campaigns' unsubscribes add up to the contacts who left after a campaign.
 * Reads a later mail through campaign_recipients_contact_idx (a contact gets a few campaigns).
 */
export const leftAfterThisMail = sql`r.state = 'sent' AND c.subscription = 'unsubscribed'
  AND c.unsubscribed_at >= r.sent_at
  AND NOT EXISTS (SELECT 1 FROM campaign_recipients later
    WHERE later.contact_id = r.contact_id AND later.state = 'sent'
      AND later.sent_at > r.sent_at AND later.sent_at <= c.unsubscribed_at)`;
