import type { WriteChannel } from '../../platform/context/request-context.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import {
  AUTHOR_COLUMNS as AUTHOR,
  authorValues,
  type AuthorRow,
  documentRows,
  type DocumentTables,
  type KeyPage,
} from '../documents/index.js';

export interface KnowledgeHeadRow {
  id: string;
  project_id: string;
  topic_id: string;
  version_number: number;
  title: string;
  owner: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface KnowledgeVersionRow {
  knowledge_id: string;
  version_number: number;
  topic_id: string;
  title: string;
  body_md: string;
  owner: string | null;
  created_at: Date;
  created_by: string;
  via: WriteChannel | null;
  client_name: string | null;
  client_version: string | null;
  request_id: string | null;
  proposal_id: string | null;
}

const HEAD = 'id, project_id, topic_id, version_number, title, owner, created_at, updated_at, deleted_at';
const VERSION = `knowledge_id, version_number, topic_id, title, body_md, owner, ${AUTHOR}`;

/** Where Knowledge sheets live, for the shared document lifecycle. */
/** The head columns a write sets besides the key, in the order the statements supply them. */
const HEAD_FIELDS = ['title', 'body_md', 'owner'] as const;

export const KNOWLEDGE_TABLES: DocumentTables = {
  head: 'knowledge',
  versions: 'knowledge_versions',
  key: 'topic_id',
  version: 'version_number',
  headId: 'knowledge_id',
  headColumns: HEAD,
  versionColumns: VERSION,
};

/** Creates the head row or bumps its version under the row lock ON CONFLICT takes (no gaps). */
export async function bumpHead(
  tx: SqlExecutor,
  row: {
    id: string;
    project_id: string;
    topic_id: string;
    title: string;
    body_md: string;
    owner: string | null;
    now: Date;
  },
): Promise<{ id: string; version_number: number }> {
  const rows = await tx.query<{ id: string; version_number: number }>(
    documentRows.writeHeadSql(
      KNOWLEDGE_TABLES,
      HEAD_FIELDS,
      'VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $7)',
      'id, version_number',
    ),
    [row.id, row.project_id, row.topic_id, row.title, row.body_md, row.owner, row.now],
  );
  return rows[0]!;
}

export async function insertVersion(tx: SqlExecutor, row: KnowledgeVersionRow): Promise<void> {
  await tx.query(
    `INSERT INTO knowledge_versions (${VERSION}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [row.knowledge_id, row.version_number, row.topic_id, row.title, row.body_md, row.owner, ...authorValues(row)],
  );
}

/**
 * bumpHead for many sheets in one statement (an import); their topic ids are distinct. The rows
 * travel as one JSON document (jsonb_to_recordset): one parameter whatever their number.
 */
export async function bumpHeads(
  tx: SqlExecutor,
  projectId: string,
  now: Date,
  rows: { id: string; topic_id: string; title: string; body_md: string; owner: string | null }[],
): Promise<{ id: string; topic_id: string; version_number: number }[]> {
  return tx.query(
    documentRows.writeHeadSql(
      KNOWLEDGE_TABLES,
      HEAD_FIELDS,
      `SELECT r.id, $1, r.topic_id, 1, r.title, r.body_md, r.owner, $2, $2
       FROM jsonb_to_recordset($3::jsonb) AS r(id text, topic_id text, title text, body_md text, owner text)`,
      'id, topic_id, version_number',
    ),
    [projectId, now, JSON.stringify(rows)],
  );
}

/** insertVersion for many rows in one statement (an import). */
export async function insertVersions(tx: SqlExecutor, rows: KnowledgeVersionRow[]): Promise<void> {
  await tx.query(
    `INSERT INTO knowledge_versions (${VERSION}) SELECT ${VERSION} FROM jsonb_to_recordset($1::jsonb) AS r(
       knowledge_id text, version_number int, topic_id text, title text, body_md text, owner text, created_at timestamptz,
       created_by text, via text, client_name text, client_version text, request_id text, proposal_id text)`,
    [JSON.stringify(rows)],
  );
}

/** Oldest first, after version `after` (keyset), at most `limit`. */
export async function listVersions(db: SqlExecutor, id: string, page: { after?: number | undefined; limit: number }) {
  return db.query<{ version_number: number; title: string; owner: string | null } & AuthorRow>(
    `SELECT version_number, title, owner, ${AUTHOR} FROM knowledge_versions
     WHERE knowledge_id = $1 AND ($2::int IS NULL OR version_number > $2) ORDER BY version_number LIMIT $3`,
    [id, page.after ?? null, page.limit],
  );
}

/** Every live sheet at its current version, body included (the raw list); or a keyset page of them. */
/** The live sheets of `topicIds` (those that exist), at their current versions. */
export async function currentByTopic(
  db: SqlExecutor,
  projectId: string,
  topicIds: string[],
): Promise<(KnowledgeHeadRow & { body_md: string })[]> {
  return db.query(
    `SELECT ${HEAD}, body_md FROM knowledge WHERE project_id = $1 AND deleted_at IS NULL AND topic_id = ANY($2::text[])`,
    [projectId, topicIds],
  );
}

export async function allCurrent(
  db: SqlExecutor,
  projectId: string,
  page: KeyPage = {},
): Promise<(KnowledgeHeadRow & { body_md: string })[]> {
  return db.query(
    `SELECT ${HEAD}, body_md FROM knowledge WHERE project_id = $1 AND deleted_at IS NULL
       AND ($2::text IS NULL OR topic_id > $2) ORDER BY topic_id LIMIT $3`,
    [projectId, page.after ?? null, page.limit ?? null],
  );
}
