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
import type { SkillStep } from './skills.parse.js';

export interface SkillHeadRow {
  id: string;
  project_id: string;
  name: string;
  version: number;
  description: string;
  mdm_references: string[];
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface SkillVersionRow {
  skill_id: string;
  version: number;
  name: string;
  description: string;
  body_md: string;
  steps: SkillStep[];
  mdm_references: string[];
  acceptance: string[];
  metadata: Record<string, unknown>;
  frontmatter_extra: Record<string, unknown>;
  frontmatter_raw: string | null;
  /** The prompt's argument declarations, read from the body when written (prompts/list reads no bodies). */
  prompt_arguments: unknown[];
  created_at: Date;
  created_by: string;
  via: WriteChannel | null;
  client_name: string | null;
  client_version: string | null;
  request_id: string | null;
  proposal_id: string | null;
}

const HEAD = 'id, project_id, name, version, description, mdm_references, created_at, updated_at, deleted_at';
const VERSION = `skill_id, version, name, description, body_md, steps, mdm_references, acceptance, metadata, frontmatter_extra, frontmatter_raw, prompt_arguments, ${AUTHOR}`;

/** Where Skills live, for the shared document lifecycle. */
/** The head columns a write sets besides the key, in the order the statements supply them. */
const HEAD_FIELDS = ['description', 'body_md', 'mdm_references'] as const;

export const SKILL_TABLES: DocumentTables = {
  head: 'skills',
  versions: 'skill_versions',
  key: 'name',
  version: 'version',
  headId: 'skill_id',
  headColumns: HEAD,
  versionColumns: VERSION,
};

/**
 * Creates the head row or bumps its version. ON CONFLICT … DO UPDATE locks the existing row, so
 * concurrent writers of one name queue behind each other and each gets the next number: no gaps,
 * no duplicates. A deleted skill written again comes back with the next version.
 */
export async function bumpHead(
  tx: SqlExecutor,
  row: {
    id: string;
    project_id: string;
    name: string;
    description: string;
    body_md: string;
    mdm_references: string[];
    now: Date;
  },
): Promise<{ id: string; version: number }> {
  const rows = await tx.query<{ id: string; version: number }>(
    documentRows.writeHeadSql(SKILL_TABLES, HEAD_FIELDS, 'VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $7)', 'id, version'),
    [row.id, row.project_id, row.name, row.description, row.body_md, row.mdm_references, row.now],
  );
  return rows[0]!;
}

export async function insertVersion(tx: SqlExecutor, row: SkillVersionRow): Promise<void> {
  await tx.query(
    `INSERT INTO skill_versions (${VERSION}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12::jsonb, $13, $14, $15, $16,
       $17, $18, $19)`,
    [
      row.skill_id,
      row.version,
      row.name,
      row.description,
      row.body_md,
      JSON.stringify(row.steps),
      row.mdm_references,
      JSON.stringify(row.acceptance),
      JSON.stringify(row.metadata),
      JSON.stringify(row.frontmatter_extra),
      row.frontmatter_raw,
      JSON.stringify(row.prompt_arguments),
      ...authorValues(row),
    ],
  );
}

/**
 * bumpHead for many skills in one statement (an import); their names are distinct. The rows travel
 * as one JSON document (jsonb_to_recordset): one parameter whatever their number.
 */
export async function bumpHeads(
  tx: SqlExecutor,
  projectId: string,
  now: Date,
  rows: { id: string; name: string; description: string; body_md: string; mdm_references: string[] }[],
): Promise<{ id: string; name: string; version: number }[]> {
  return tx.query(
    documentRows.writeHeadSql(
      SKILL_TABLES,
      HEAD_FIELDS,
      `SELECT r.id, $1, r.name, 1, r.description, r.body_md, ARRAY(SELECT jsonb_array_elements_text(r.mdm_references)), $2, $2
       FROM jsonb_to_recordset($3::jsonb) AS r(id text, name text, description text, body_md text, mdm_references jsonb)`,
      'id, name, version',
    ),
    [projectId, now, JSON.stringify(rows)],
  );
}

/** insertVersion for many rows in one statement (an import). */
export async function insertVersions(tx: SqlExecutor, rows: SkillVersionRow[]): Promise<void> {
  await tx.query(
    `INSERT INTO skill_versions (${VERSION})
     SELECT skill_id, version, name, description, body_md, steps, ARRAY(SELECT jsonb_array_elements_text(mdm_references)),
       acceptance, metadata, frontmatter_extra, frontmatter_raw, prompt_arguments, ${AUTHOR}
     FROM jsonb_to_recordset($1::jsonb) AS r(
       skill_id text, version int, name text, description text, body_md text, steps jsonb, mdm_references jsonb,
       acceptance jsonb, metadata jsonb, frontmatter_extra jsonb, frontmatter_raw text, prompt_arguments jsonb, created_at timestamptz,
       created_by text, via text, client_name text, client_version text, request_id text, proposal_id text)`,
    [JSON.stringify(rows)],
  );
}

export async function findHead(db: SqlExecutor, projectId: string, name: string): Promise<SkillHeadRow | undefined> {
  return documentRows.findHead<SkillHeadRow>(db, SKILL_TABLES, projectId, name);
}

export async function findVersion(db: SqlExecutor, skillId: string, version: number) {
  return documentRows.findVersion<SkillVersionRow>(db, SKILL_TABLES, skillId, version);
}

/** Oldest first, after version `after` (keyset), at most `limit`. */
export async function listVersions(
  db: SqlExecutor,
  skillId: string,
  page: { after?: number | undefined; limit: number },
): Promise<({ version: number; description: string; step_count: number } & AuthorRow)[]> {
  return db.query(
    `SELECT version, description, jsonb_array_length(steps) AS step_count, ${AUTHOR}
     FROM skill_versions WHERE skill_id = $1 AND ($2::int IS NULL OR version > $2) ORDER BY version LIMIT $3`,
    [skillId, page.after ?? null, page.limit],
  );
}

/** Every live skill at its current version (get_skills, get_context_hub); or a keyset page of them. */
export async function allCurrent(
  db: SqlExecutor,
  projectId: string,
  page: KeyPage = {},
): Promise<(SkillVersionRow & { id: string })[]> {
  return db.query(
    `SELECT s.id, ${VERSION.split(', ')
      .map((c) => `v.${c}`)
      .join(', ')}
     FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.version
     WHERE s.project_id = $1 AND s.deleted_at IS NULL AND ($2::text IS NULL OR s.name > $2) ORDER BY s.name LIMIT $3`,
    [projectId, page.after ?? null, page.limit ?? null],
  );
}

/**
 * Live Skills' current versions across `projectIds` in (project, name) order after `after`, at
 * most `limit`; or the one named `name` (a project and a name in `after`, `exact`).
 */
export async function currentAcross(
  db: SqlExecutor,
  projectIds: string[],
  after: { project_id: string; name: string } | undefined,
  limit: number,
  exact = false,
): Promise<(SkillVersionRow & { project_id: string })[]> {
  const columns = VERSION.split(', ')
    .map((c) => `v.${c}`)
    .join(', ');
  const where = exact
    ? 's.project_id = $2 AND s.name = $3'
    : '($2::text IS NULL OR (s.project_id, s.name) > ($2::text, $3::text))';
  return db.query(
    `SELECT s.project_id, ${columns}
     FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.version
     WHERE s.project_id = ANY($1::text[]) AND s.deleted_at IS NULL AND ${where}
     ORDER BY s.project_id, s.name LIMIT $4`,
    [projectIds, after?.project_id ?? null, after?.name ?? null, limit],
  );
}

/** The subset of `keys` that exist in the project's taxonomy. */
export async function existingKeys(db: SqlExecutor, projectId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.query<{ key: string }>(
    'SELECT key FROM business_keys WHERE project_id = $1 AND key = ANY($2::text[])',
    [projectId, keys],
  );
  return new Set(rows.map((r) => r.key));
}

/** What prompts/list needs of a live Skill in one project (its current version's argument declarations). */
export interface PromptRow {
  name: string;
  project_id: string;
  description: string;
  /** The start of the body, where its title heading is. */
  body_head: string;
  prompt_arguments: unknown;
}

/**
 * The live Skills of the first `limit` distinct names after `after` (keyset on name) among
 * `projectIds`, one row per project holding the name, ordered by name then project.
 */
export async function promptRows(
  db: SqlExecutor,
  projectIds: string[],
  options: { after?: string | undefined; limit: number },
): Promise<PromptRow[]> {
  return db.query<PromptRow>(
    `WITH names AS (
       SELECT DISTINCT name FROM skills
       WHERE deleted_at IS NULL AND project_id = ANY($1::text[]) AND ($2::text IS NULL OR name > $2)
       ORDER BY name LIMIT $3
     )
     SELECT s.name, s.project_id, s.description, left(s.body_md, 400) AS body_head,
       v.prompt_arguments
     FROM names n JOIN skills s ON s.name = n.name AND s.deleted_at IS NULL AND s.project_id = ANY($1::text[])
     JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.version
     ORDER BY s.name, s.project_id`,
    [projectIds, options.after ?? null, options.limit],
  );
}

/** The rows promptRows gives for one name (every project among `projectIds` that holds it live). */
export async function promptRowsNamed(db: SqlExecutor, projectIds: string[], name: string): Promise<PromptRow[]> {
  return db.query<PromptRow>(
    `SELECT s.name, s.project_id, s.description, left(s.body_md, 400) AS body_head,
       v.prompt_arguments
     FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.version
     WHERE s.name = $2 AND s.deleted_at IS NULL AND s.project_id = ANY($1::text[])
     ORDER BY s.project_id`,
    [projectIds, name],
  );
}
