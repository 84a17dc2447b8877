import type { WriteChannel } from '../../platform/context/request-context.js';
import type { SqlExecutor } from '../../platform/db/database.js';

/** The authorship columns every version row carries. */
export const AUTHOR_COLUMNS = 'created_at, created_by, via, client_name, client_version, request_id, proposal_id';

/**
 * Where one kind of document lives: a head table (one row a document, its current version and a
 * copy of its current fields) and a version table (one row a version). The names are the kind's
 * own constants, never input, so they are written into the statements as they are.
 */
export interface DocumentTables {
  head: string;
  versions: string;
  /** The head column that names a document within its project (unique with project_id). */
  key: string;
  /** The version-number column, on both tables. */
  version: string;
  /** The version table's column that holds its head's id. */
  headId: string;
  headColumns: string;
  versionColumns: string;
}

/** A version row's authorship columns as read back. */
export interface AuthorRow {
  created_at: Date;
  created_by: string;
  via: WriteChannel | null;
  client_name: string | null;
  client_version: string | null;
  request_id: string | null;
  proposal_id: string | null;
}

/** A keyset page over live documents by key: after the key `after`, at most `limit` (all without one). */
export interface KeyPage {
  after?: string | undefined;
  limit?: number;
}

/** A version row's authorship columns, in AUTHOR_COLUMNS order, as statement parameters. */
export function authorValues(row: AuthorRow): unknown[] {
  return [
    row.created_at,
    row.created_by,
    row.via,
    row.client_name,
    row.client_version,
    row.request_id,
    row.proposal_id,
  ];
}

export interface DocumentHead {
  id: string;
  project_id: string;
  deleted_at: Date | null;
}

export async function findHead<H>(db: SqlExecutor, t: DocumentTables, projectId: string, key: string) {
  return (
    await db.query<H>(`SELECT ${t.headColumns} FROM ${t.head} WHERE project_id = $1 AND ${t.key} = $2`, [
      projectId,
      key,
    ])
  )[0];
}

/** A live document by id or by key (links accept either). */
export async function findLiveByIdOrKey<H>(db: SqlExecutor, t: DocumentTables, projectId: string, ref: string) {
  return (
    await db.query<H>(
      `SELECT ${t.headColumns} FROM ${t.head} WHERE project_id = $1 AND (id = $2 OR ${t.key} = $2) AND deleted_at IS NULL`,
      [projectId, ref],
    )
  )[0];
}

export async function findVersion<V>(db: SqlExecutor, t: DocumentTables, headId: string, version: number) {
  return (
    await db.query<V>(`SELECT ${t.versionColumns} FROM ${t.versions} WHERE ${t.headId} = $1 AND ${t.version} = $2`, [
      headId,
      version,
    ])
  )[0];
}

/** Live heads in key order, after `after` (keyset), at most `limit`. */
export async function listLive<H>(
  db: SqlExecutor,
  t: DocumentTables,
  projectId: string,
  options: { after?: string | undefined; limit: number },
): Promise<H[]> {
  return db.query<H>(
    `SELECT ${t.headColumns} FROM ${t.head} WHERE project_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR ${t.key} > $2)
     ORDER BY ${t.key} LIMIT $3`,
    [projectId, options.after ?? null, options.limit],
  );
}

export async function markDeleted(db: SqlExecutor, t: DocumentTables, id: string, now: Date): Promise<void> {
  await db.query(`UPDATE ${t.head} SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL`, [id, now]);
}

export async function markManyDeleted(db: SqlExecutor, t: DocumentTables, ids: string[], now: Date): Promise<void> {
  await db.query(`UPDATE ${t.head} SET deleted_at = $2 WHERE id = ANY($1::text[]) AND deleted_at IS NULL`, [ids, now]);
}

/**
 * The statement that writes a document's head: a new document at version 1, or the next version of
 * an existing (or deleted) one. `fields` are the kind's own head columns besides the key, in the
 * order `rows` gives them; `rows` is the VALUES list or the SELECT that supplies
 * (id, project_id, key, 1, ...fields, created_at, updated_at); `returning` the columns to hand back.
 */
export function writeHeadSql(t: DocumentTables, fields: readonly string[], rows: string, returning: string): string {
  const updates = fields.map((f) => `${f} = EXCLUDED.${f}`).join(', ');
  return `INSERT INTO ${t.head} (id, project_id, ${t.key}, ${t.version}, ${fields.join(', ')}, created_at, updated_at)
     ${rows}
     ON CONFLICT (project_id, ${t.key}) DO UPDATE SET ${t.version} = ${t.head}.${t.version} + 1, ${updates},
       updated_at = EXCLUDED.updated_at, deleted_at = NULL
     RETURNING ${returning}`;
}
