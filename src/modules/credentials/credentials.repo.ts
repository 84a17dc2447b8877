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
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `project_id, connection_ref_id, provider, status, config, secrets_ciphertext, secrets_rotated_at,
  last_verified_at, last_verification, last_error, created_at, updated_at`;

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
  error: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE connections SET status = $3, last_error = $4, updated_at = $5 WHERE project_id = $1 AND connection_ref_id = $2 AND status <> 'revoked'`,
    [projectId, ref, status, error, now],
  );
}
