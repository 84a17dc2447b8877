import type { WriteChannel } from '../../platform/context/request-context.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { ProposalStatus } from './proposals.schemas.js';

export interface ProposalRow {
  id: string;
  project_id: string;
  kind: 'skill' | 'knowledge';
  object_key: string;
  base_version: number | null;
  fields: Record<string, unknown>;
  author_subject: string;
  author_via: WriteChannel;
  author_client_name: string | null;
  author_client_version: string | null;
  request_id: string | null;
  created_at: Date;
  status: ProposalStatus;
  decided_by: string | null;
  decided_at: Date | null;
  comment: string | null;
  published_version: number | null;
  superseded_by: string | null;
}

const COLUMNS = `id, project_id, kind, object_key, base_version, fields, author_subject, author_via, author_client_name,
  author_client_version, request_id, created_at, status, decided_by, decided_at, comment, published_version,
  superseded_by`;

export async function insertProposal(
  tx: SqlExecutor,
  row: Omit<ProposalRow, 'status' | 'decided_by' | 'decided_at' | 'comment' | 'published_version' | 'superseded_by'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO proposals (id, project_id, kind, object_key, base_version, fields, author_subject, author_via,
       author_client_name, author_client_version, request_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.project_id,
      row.kind,
      row.object_key,
      row.base_version,
      JSON.stringify(row.fields),
      row.author_subject,
      row.author_via,
      row.author_client_name,
      row.author_client_version,
      row.request_id,
      row.created_at,
    ],
  );
}

/** Marks the author's pending proposal for the object superseded by `by`; returns its id, if there was one. */
export async function supersedePending(
  tx: SqlExecutor,
  where: { project_id: string; kind: string; object_key: string; author_subject: string },
  by: string,
  now: Date,
): Promise<string | undefined> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE proposals SET status = 'superseded', superseded_by = $5, decided_at = $6
     WHERE project_id = $1 AND kind = $2 AND object_key = $3 AND author_subject = $4 AND status = 'pending'
     RETURNING id`,
    [where.project_id, where.kind, where.object_key, where.author_subject, by, now],
  );
  return rows[0]?.id;
}

export async function findProposal(db: SqlExecutor, id: string): Promise<ProposalRow | undefined> {
  return (await db.query<ProposalRow>(`SELECT ${COLUMNS} FROM proposals WHERE id = $1`, [id]))[0];
}

/**
 * Moves a pending proposal to its decision; undefined when it was no longer pending (another
 * reviewer decided first), so two decisions never both land.
 */
export async function decide(
  tx: SqlExecutor,
  id: string,
  decision: {
    status: ProposalStatus;
    decided_by: string;
    decided_at: Date;
    comment: string | null;
    published_version: number | null;
  },
): Promise<ProposalRow | undefined> {
  return (
    await tx.query<ProposalRow>(
      `UPDATE proposals SET status = $2, decided_by = $3, decided_at = $4, comment = $5, published_version = $6
       WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, decision.status, decision.decided_by, decision.decided_at, decision.comment, decision.published_version],
    )
  )[0];
}

/** Newest first, keyset after (created_at, id); `author` restricts to one author's proposals. */
export async function listProposals(
  db: SqlExecutor,
  options: {
    project_id: string;
    status?: ProposalStatus | undefined;
    author?: string | undefined;
    before?: [string, string] | undefined;
    limit: number;
  },
): Promise<ProposalRow[]> {
  return db.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals
     WHERE project_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR author_subject = $3)
       AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::text))
     ORDER BY created_at DESC, id DESC LIMIT $6`,
    [
      options.project_id,
      options.status ?? null,
      options.author ?? null,
      options.before?.[0] ?? null,
      options.before?.[1] ?? null,
      options.limit,
    ],
  );
}
