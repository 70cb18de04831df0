import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The Standard Webhooks headers of one delivery: `webhook-signature` is `v1,` + base64 of the
 * HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's base64-decoded bytes.
 */
export function signedHeaders(
  secret: string,
  message: { id: string; timestamp: number; body: string },
): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${message.id}.${message.timestamp}.${message.body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
