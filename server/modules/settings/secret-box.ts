// Secrets kept in the settings store (Settings → Communication's SMTP password) are sealed at rest with
// AES-256-GCM: a copy of the database, a backup or a log of the table does not hand out the mail account.
//
// Stored form: the string `enc:v1:<iv>:<tag>:<ciphertext>` (base64url; a random 12-byte IV per value, the
// 16-byte GCM tag), so the field stays a string in `setting_sections`' JSON. A string without the prefix
// is a value stored before sealing: it is read as is, and sealed at the next start (`sealStoredSecrets`)
// or the next save of its section, whichever comes first (stored-secrets.ts).
//
// The key is derived (HKDF-SHA256, purpose "settings-secrets") from the key every instance already shares
// for signing tokens (JWT_SECRET, else the generated one kept in the database: `jwtSigningKey`), so every
// instance opens what another sealed. Changing JWT_SECRET makes sealed values unreadable: readers get a
// SecretUnreadableError and the admin enters the secret again.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type FieldDefinition, sectionFields } from '../../../contracts/settings';

const PREFIX = 'enc:v1:';
const PURPOSE = 'settings-secrets';

export interface SecretBox {
  /** The stored form of a secret ('' — no secret — stays ''). */
  seal(plain: string): string;
  /** The secret of a stored value: opened when sealed, as is when stored before sealing. */
  open(stored: string): string;
}

/** A sealed value that this server's key does not open (JWT_SECRET changed, or the value was altered). */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/** The box for a 32-byte key (tests may pass their own). */
export function secretBox(key: Uint8Array): SecretBox {
  return {
    seal(plain) {
      if (plain === '') return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join(':')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [iv, tag, ciphertext] = stored
        .slice(PREFIX.length)
        .split(':')
        .map((part) => Buffer.from(part, 'base64url'));
      try {
        if (!iv || !tag || !ciphertext) throw new Error('malformed');
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError(
          "A saved secret cannot be decrypted with this server's key (was JWT_SECRET changed?): enter it again in Settings.",
        );
      }
    },
  };
}

/** The settings' key, derived from the token-signing key every instance shares. */
export function settingsSecretsKey(signingKey: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', signingKey, new Uint8Array(0), PURPOSE, 32));
}

/** The secret fields of a section. */
export function secretFields(section: string): string[] {
  const fields = (sectionFields as Record<string, Record<string, FieldDefinition>>)[section] ?? {};
  return Object.entries(fields)
    .filter(([, definition]) => definition.secret)
    .map(([field]) => field);
}

/** The section's stored values with every secret not yet sealed sealed (the others untouched). */
export function sealSecrets(
  box: SecretBox,
  section: string,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const sealed = { ...values };
  for (const field of secretFields(section)) {
    const value = sealed[field];
    if (typeof value === 'string' && !isSealed(value)) sealed[field] = box.seal(value);
  }
  return sealed;
}
