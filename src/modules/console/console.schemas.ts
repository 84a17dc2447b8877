import { z } from 'zod';

export const ConsoleConfigOutput = z.object({
  auth_mode: z.enum(['disabled', 'static', 'oauth']),
  oauth: z
    .object({
      issuer: z.string().describe('OAUTH_ISSUER: the console discovers its endpoints from its metadata.'),
      client_id: z.string().nullable().describe('CONSOLE_OAUTH_CLIENT_ID; null when not configured.'),
      scopes: z.array(z.string()).describe('The scopes the console asks for.'),
      resource: z.string().describe('The resource indicator (RFC 8707) tokens are asked for: the REST API.'),
    })
    .nullable(),
});
export type ConsoleConfigOutput = z.infer<typeof ConsoleConfigOutput>;

export const ConsolePathParams = z.object({ '*': z.string().max(2048) });
