import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { ProviderError } from './provider.js';

/** A Google service account's JSON key, as the console downloads it (only the fields used here). */
export const ServiceAccountKey = z.object({
  type: z.literal('service_account'),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.url({ protocol: /^https?$/ }).optional(),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The key inside `service_account_json`, or a reason naming what is wrong (never a value of it). */
export function parseServiceAccount(json: string): { key: ServiceAccountKey } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { problem: 'must be the JSON key file of a service account (it is not JSON)' };
  }
  const parsed = ServiceAccountKey.safeParse(raw);
  if (parsed.success) return { key: parsed.data };
  const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))].filter(Boolean);
  return { problem: `must be the JSON key file of a service account (check ${fields.join(', ') || 'its fields'})` };
}

/**
 * The signed assertion of the JWT bearer grant (RFC 7523 §2.1): issued by the service account, for
 * the token endpoint it is sent to, valid for an hour from the injected clock.
 */
export async function signAssertion(
  key: ServiceAccountKey,
  audience: string,
  scope: string | undefined,
  now: Date,
): Promise<string> {
  let privateKey: CryptoKey;
  try {
    privateKey = await importPKCS8(key.private_key, 'RS256');
  } catch {
    throw new ProviderError('the service account key could not be read (private_key is not a PKCS#8 RSA key)');
  }
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT(scope ? { scope } : {})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) })
    .setIssuer(key.client_email)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(privateKey);
}
