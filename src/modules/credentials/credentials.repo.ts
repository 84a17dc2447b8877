import type { SqlExecutor } from '../../platform/db/database.js';

export interface ConnectionRow {
  project_id: string;
  connection_ref_id: string;
  provider: string;
  status: 'active' | 'error' | 'expired' | 'revoked';
  config: Record<string, unknown>;
  secrets_ciphertext: Uint8Array | null;
  secrets_rotated_at: Date | null;
  last_verified_at: Date | null;
  last_verification: { token_check: unknown; connectivity: unknown } | null;
  last_error: string | null;
  access_token_ciphertext: Uint8Array | null;
  token_expires_at: Date | null;
  token_refreshed_at: Date | null;
  token_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `project_id, connection_ref_id, provider, status, config, secrets_ciphertext, secrets_rotated_at,
  last_verified_at, last_verification, last_error, access_token_ciphertext, token_expires_at, token_refreshed_at,
  token_error, created_at, updated_at`;

export async function findConnection(
  db: SqlExecutor,
  projectId: string,
  ref: string,
): Promise<ConnectionRow | undefined> {
  return (
    await db.query<ConnectionRow>(
      `SELECT ${COLUMNS} FROM connections WHERE project_id = $1 AND connection_ref_id = $2`,
      [projectId, ref],
    )
  )[0];
}

/** By connection_ref_id, after `after` (keyset), at most `limit`. */
export async function listConnections(
  db: SqlExecutor,
  projectId: string,
  page: { after?: string | undefined; limit: number },
): Promise<ConnectionRow[]> {
  return db.query<ConnectionRow>(
    `SELECT ${COLUMNS} FROM connections WHERE project_id = $1 AND ($2::text IS NULL OR connection_ref_id > $2)
     ORDER BY connection_ref_id LIMIT $3`,
    [projectId, page.after ?? null, page.limit],
  );
}

/** Create, or rotate in place: new config always; secrets only when given (null keeps them). */
export async function upsertConnection(
  db: SqlExecutor,
  row: {
    project_id: string;
    connection_ref_id: string;
    provider: string;
    status: string;
    config: Record<string, unknown>;
    secrets: Buffer | null;
    actor: string;
    now: Date;
  },
): Promise<ConnectionRow> {
  const rows = await db.query<ConnectionRow>(
    `INSERT INTO connections (project_id, connection_ref_id, provider, status, config, secrets_ciphertext, secrets_rotated_at, created_at, created_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::bytea IS NULL THEN NULL ELSE $7::timestamptz END, $7, $8, $7)
     ON CONFLICT (project_id, connection_ref_id) DO UPDATE SET
       status = EXCLUDED.status,
       config = EXCLUDED.config,
       secrets_ciphertext = COALESCE(EXCLUDED.secrets_ciphertext, connections.secrets_ciphertext),
       secrets_rotated_at = COALESCE(EXCLUDED.secrets_rotated_at, connections.secrets_rotated_at),
       last_error = CASE WHEN EXCLUDED.secrets_ciphertext IS NULL THEN connections.last_error ELSE NULL END,
       access_token_ciphertext = CASE WHEN EXCLUDED.secrets_ciphertext IS NULL THEN connections.access_token_ciphertext END,
       token_expires_at = CASE WHEN EXCLUDED.secrets_ciphertext IS NULL THEN connections.token_expires_at END,
       token_error = CASE WHEN EXCLUDED.secrets_ciphertext IS NULL THEN connections.token_error END,
       updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      row.project_id,
      row.connection_ref_id,
      row.provider,
      row.status,
      JSON.stringify(row.config),
      row.secrets,
      row.now,
      row.actor,
    ],
  );
  return rows[0]!;
}

export async function recordVerification(
  db: SqlExecutor,
  key: { project_id: string; connection_ref_id: string },
  outcome: { status: string; verification: unknown; error: string | null; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE connections SET status = $3, last_verified_at = $4, last_verification = $5, last_error = $6, updated_at = $4
     WHERE project_id = $1 AND connection_ref_id = $2`,
    [
      key.project_id,
      key.connection_ref_id,
      outcome.status,
      outcome.now,
      JSON.stringify(outcome.verification),
      outcome.error,
    ],
  );
}

/** A run's outcome also tells the connection's health (a refused token marks it expired). */
export async function recordConnectionError(
  db: SqlExecutor,
  projectId: string,
  ref: string,
  status: string,
  error: string | null,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE connections SET status = $3, last_error = $4, updated_at = $5 WHERE project_id = $1 AND connection_ref_id = $2 AND status <> 'revoked'`,
    [projectId, ref, status, error, now],
  );
}

/** The row, locked until the transaction ends: one token refresh per connection at a time, on every replica. */
export async function lockConnection(
  tx: SqlExecutor,
  projectId: string,
  ref: string,
  lock: boolean,
): Promise<ConnectionRow | undefined> {
  const sql = `SELECT ${COLUMNS} FROM connections WHERE project_id = $1 AND connection_ref_id = $2`;
  return (await tx.query<ConnectionRow>(lock ? `${sql} FOR UPDATE` : sql, [projectId, ref]))[0];
}

/** A renewed access token, and the rotated refresh token (secrets) when the endpoint sent one. */
export async function storeToken(
  tx: SqlExecutor,
  key: { project_id: string; connection_ref_id: string },
  token: { access: Buffer | null; expiresAt: Date | null; secrets: Buffer | null; now: Date },
): Promise<void> {
  await tx.query(
    `UPDATE connections SET access_token_ciphertext = $3, token_expires_at = $4, token_refreshed_at = $5, token_error = NULL,
       secrets_ciphertext = COALESCE($6, secrets_ciphertext), updated_at = $5
     WHERE project_id = $1 AND connection_ref_id = $2`,
    [key.project_id, key.connection_ref_id, token.access, token.expiresAt, token.now, token.secrets],
  );
}

/** Why the last renewal failed; an `expired` grant also marks the connection. */
export async function recordTokenError(
  db: SqlExecutor,
  key: { project_id: string; connection_ref_id: string },
  error: string,
  expired: boolean,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE connections SET token_error = $3, updated_at = $5,
       status = CASE WHEN $4::boolean AND status <> 'revoked' THEN 'expired' ELSE status END
     WHERE project_id = $1 AND connection_ref_id = $2`,
    [key.project_id, key.connection_ref_id, error, expired, now],
  );
}

/** Connections whose credentials Nango holds for one integration and connection id. */
export async function findByNangoConnection(
  db: SqlExecutor,
  providerConfigKey: string,
  connectionId: string,
): Promise<ConnectionRow[]> {
  return db.query<ConnectionRow>(
    `SELECT ${COLUMNS} FROM connections WHERE connection_ref_id = $1 AND config -> 'nango' ->> 'provider_config_key' = $2`,
    [connectionId, providerConfigKey],
  );
}
