import type { ConnectionRow } from './credentials.repo.js';
import type { ConnectionOutput } from './credentials.schemas.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** Never includes a secret: only whether some are stored and when they were last rotated. */
export function presentConnection(row: ConnectionRow, integrationUrl: string | null): ConnectionOutput {
  return {
    project_id: row.project_id,
    connection_ref_id: row.connection_ref_id,
    provider: row.provider,
    status: row.status,
    config: row.config,
    has_secrets: !!row.secrets_ciphertext && row.secrets_ciphertext.length > 0,
    secrets_rotated_at: iso(row.secrets_rotated_at),
    last_verified_at: iso(row.last_verified_at),
    last_verification: (row.last_verification as ConnectionOutput['last_verification']) ?? null,
    last_error: row.last_error,
    token: {
      source: row.config.nango
        ? 'nango'
        : row.token_refreshed_at || row.config.token_url
          ? 'token_endpoint'
          : 'secrets',
      expires_at: iso(row.token_expires_at),
      last_refresh_at: iso(row.token_refreshed_at),
      last_error: row.token_error,
    },
    outbound_refusal: refusalIn(row.last_error) ?? refusalIn(row.token_error),
    integration_url: integrationUrl,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The policy's refusal, when that is what the last error was (its text starts the same way always). */
function refusalIn(error: string | null): string | null {
  const at = error?.indexOf('refused by the outbound policy') ?? -1;
  return at >= 0 ? error!.slice(at) : null;
}
