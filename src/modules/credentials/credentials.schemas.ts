import { z } from 'zod';
import { PageQuery } from '../../platform/pagination.js';
import { ProjectId } from '../projects/index.js';

export const ConnectionRefId = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/,
    'letters, digits and _ . : - (up to 128), starting with a letter or digit',
  );

export const ConnectionStatus = z.enum(['active', 'error', 'expired', 'revoked']);

export const UpsertConnectionInput = z
  .object({
    project_id: ProjectId,
    provider: z.string().min(1).max(64),
    connection_ref_id: ConnectionRefId,
    config: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The provider's settings (not secret): URLs, mapping, query…"),
    secrets: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Credentials (client secret, refresh token, connection string…). Encrypted at rest, never returned. Omit to keep the stored ones.',
      ),
    status: z.literal('revoked').optional().describe('Set to revoke the connection; runs then refuse to use it.'),
  })
  .strict();
export type UpsertConnectionInput = z.infer<typeof UpsertConnectionInput>;

export const ListConnectionsQuery = PageQuery.extend({ project_id: ProjectId }).strict();

export const VerifyConnectionInput = z
  .object({ project_id: ProjectId, provider: z.string().min(1).max(64), connection_ref_id: ConnectionRefId })
  .strict();
export type VerifyConnectionInput = z.infer<typeof VerifyConnectionInput>;

const Check = z.object({ ok: z.boolean(), ms: z.number(), reason: z.string().nullable() });

export const ConnectLinkInput = z.object({ project_id: ProjectId, connection_ref_id: ConnectionRefId }).strict();

export const ConnectLinkOutput = z.object({
  connect_link: z.string().nullable(),
  token: z.string().describe("The connect session token (for Nango's frontend SDK)"),
  expires_at: z.string(),
});

const TokenState = z.object({
  source: z
    .enum(['secrets', 'token_endpoint', 'nango'])
    .describe('Where the credentials come from: stored secrets, tokens from its own token endpoint, or Nango'),
  expires_at: z.string().nullable(),
  last_refresh_at: z.string().nullable(),
  last_error: z.string().nullable(),
});

export const ConnectionOutput = z.object({
  project_id: z.string(),
  connection_ref_id: z.string(),
  provider: z.string(),
  status: ConnectionStatus,
  config: z.record(z.string(), z.unknown()),
  has_secrets: z.boolean(),
  secrets_rotated_at: z.string().nullable(),
  last_verified_at: z.string().nullable(),
  last_verification: z.object({ token_check: Check, connectivity: Check }).nullable(),
  last_error: z.string().nullable(),
  token: TokenState,
  outbound_refusal: z
    .string()
    .nullable()
    .describe('The outbound policy refusal of the last verify or run, when that is why it failed'),
  integration_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConnectionOutput = z.infer<typeof ConnectionOutput>;

export const ConnectionListOutput = z.object({
  connections: z.array(ConnectionOutput),
  next_cursor: z.string().nullable(),
});

export const VerifyOutput = z.object({ status: ConnectionStatus, token_check: Check, connectivity: Check });
