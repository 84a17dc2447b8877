import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { postJson, type Outgoing, type Sender, type SendResult } from './sender.js';

/** A new signing secret in the Standard Webhooks form (whsec_ + base64 of 32 random bytes). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The JSON a webhook receives: Standard Webhooks' recommended envelope `{type, timestamp, data}`.
 * `timestamp` is the message's creation, so every attempt sends the same bytes.
 */
export function webhookBody(out: Outgoing): string {
  return JSON.stringify({ type: out.payload.type, timestamp: out.payload.created_at, data: out.payload });
}

/**
 * Standard Webhooks: `webhook-id` (the message id, the same on every retry, for the receiver's
 * idempotency), `webhook-timestamp` (this attempt, seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`), signed with the official package.
 */
export const webhookSender: Sender = {
  kind: 'webhook',
  async send(out: Outgoing): Promise<SendResult> {
    const body = webhookBody(out);
    const secret = String(out.secrets.signing_secret ?? '');
    const signature = new Webhook(secret).sign(out.id, out.sentAt, body);
    return postJson(
      String(out.secrets.url),
      body,
      {
        'webhook-id': out.id,
        'webhook-timestamp': String(Math.floor(out.sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      out,
    );
  },
};
