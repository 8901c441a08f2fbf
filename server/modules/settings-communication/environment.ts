// Which communication fields the server's environment decides (issue 29): with SMTP_URL set, the
// operator chose the mail server, and the section shows the SMTP fields read-only, "set in the
// environment". The sender (name, address, reply-to) always stays the marketplace's setting.
import type { Config } from '../../config';

export const SMTP_FIELDS = [
  'transport',
  'smtpHost',
  'smtpPort',
  'smtpSecure',
  'smtpUser',
  'smtpPassword',
] as const;

/** The communication fields set in the environment (the section's `fromEnvironment`). */
export function mailFieldsFromEnvironment(config: Pick<Config, 'SMTP_URL'>): readonly string[] {
  return config.SMTP_URL ? SMTP_FIELDS : [];
}
