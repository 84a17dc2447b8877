import type { SqlExecutor } from '../../platform/db/database.js';

export interface KeyRow {
  key: string;
  label: string;
  description: string | null;
  parent_key: string | null;
  synonyms: string[];
  updated_at: Date;
}

export interface LinkRow {
  id: string;
  relation_type: string;
  source_type: 'knowledge' | 'skill';
  source_id: string;
  source_key: string;
  source_title: string;
  business_key: string;
  created_at: Date;
}

const KEY = 'key, label, description, parent_key, synonyms, updated_at';

/** The text the title tier and typo matching search: label, the key's words, the synonyms. */
function titleText(row: { key: string; label: string; synonyms: string[] }): string {
  return [row.label, row.key.replace(/[._-]+/g, ' '), ...row.synonyms].join(' ');
}

export async function insertKey(
  db: SqlExecutor,
  projectId: string,
  row: Omit<KeyRow, 'updated_at'>,
  now: Date,
): Promise<KeyRow | undefined> {
  return (
    await db.query<KeyRow>(
      `INSERT INTO business_keys (project_id, key, label, description, parent_key, synonyms, created_at, updated_at, title_text)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) ON CONFLICT (project_id, key) DO NOTHING RETURNING ${KEY}`,
      [projectId, row.key, row.label, row.description, row.parent_key, row.synonyms, now, titleText(row)],
    )
  )[0];
}

export async function updateKey(
  db: SqlExecutor,
  projectId: string,
  row: Omit<KeyRow, 'updated_at'>,
  now: Date,
): Promise<KeyRow> {
  return (
    await db.query<KeyRow>(
      `UPDATE business_keys SET label = $3, description = $4, parent_key = $5, synonyms = $6, updated_at = $7, title_text = $8
       WHERE project_id = $1 AND key = $2 RETURNING ${KEY}`,
      [projectId, row.key, row.label, row.description, row.parent_key, row.synonyms, now, titleText(row)],
    )
  )[0]!;
}

export async function findKey(db: SqlExecutor, projectId: string, key: string): Promise<KeyRow | undefined> {
  return (
    await db.query<KeyRow>(`SELECT ${KEY} FROM business_keys WHERE project_id = $1 AND key = $2`, [projectId, key])
  )[0];
}

/** The chain of ancestors from `key` up to its root, `key` first (bounded against bad data). */
export async function ancestors(db: SqlExecutor, projectId: string, key: string): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `WITH RECURSIVE up(key, parent_key, depth) AS (
       SELECT key, parent_key, 0 FROM business_keys WHERE project_id = $1 AND key = $2
       UNION ALL
       SELECT b.key, b.parent_key, up.depth + 1 FROM business_keys b JOIN up ON b.key = up.parent_key AND b.project_id = $1
       WHERE up.depth < 1000
     ) SELECT key FROM up ORDER BY depth`,
    [projectId, key],
  );
  return rows.map((r) => r.key);
}

export async function children(
  db: SqlExecutor,
  projectId: string,
  key: string,
): Promise<{ key: string; label: string }[]> {
  return db.query('SELECT key, label FROM business_keys WHERE project_id = $1 AND parent_key = $2 ORDER BY key', [
    projectId,
    key,
  ]);
}

export async function deleteKey(db: SqlExecutor, projectId: string, key: string): Promise<void> {
  await db.query('DELETE FROM business_keys WHERE project_id = $1 AND key = $2', [projectId, key]);
}

export async function listKeys(
  db: SqlExecutor,
  projectId: string,
  options: { after?: string; limit?: number },
): Promise<KeyRow[]> {
  return db.query<KeyRow>(
    `SELECT ${KEY} FROM business_keys WHERE project_id = $1 AND ($2::text IS NULL OR key > $2) ORDER BY key LIMIT $3`,
    [projectId, options.after ?? null, options.limit ?? null],
  );
}

export async function insertLink(
  db: SqlExecutor,
  row: {
    id: string;
    project_id: string;
    relation_type: string;
    source_type: string;
    source_id: string;
    business_key: string;
    created_by: string;
    now: Date;
  },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO business_links (id, project_id, relation_type, source_type, source_id, business_key, created_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (project_id, source_type, source_id, business_key, relation_type) DO NOTHING RETURNING id`,
    [
      row.id,
      row.project_id,
      row.relation_type,
      row.source_type,
      row.source_id,
      row.business_key,
      row.now,
      row.created_by,
    ],
  );
  return rows.length === 1;
}

/** Links whose source is live, with the source's name/topic and title; optionally for one key. */
export async function listLinks(
  db: SqlExecutor,
  projectId: string,
  options: { after?: string; limit?: number; businessKey?: string; id?: string },
): Promise<LinkRow[]> {
  return db.query<LinkRow>(
    `SELECT l.id, l.relation_type, l.source_type, l.source_id, l.business_key, l.created_at,
       coalesce(s.name, k.topic_id) AS source_key, coalesce(s.description, k.title) AS source_title
     FROM business_links l
     LEFT JOIN skills s ON l.source_type = 'skill' AND s.id = l.source_id AND s.deleted_at IS NULL
     LEFT JOIN knowledge k ON l.source_type = 'knowledge' AND k.id = l.source_id AND k.deleted_at IS NULL
     WHERE l.project_id = $1 AND (s.id IS NOT NULL OR k.id IS NOT NULL)
       AND ($2::text IS NULL OR l.id > $2) AND ($3::text IS NULL OR l.business_key = $3) AND ($5::text IS NULL OR l.id = $5)
     ORDER BY l.id LIMIT $4`,
    [projectId, options.after ?? null, options.businessKey ?? null, options.limit ?? null, options.id ?? null],
  );
}

export async function deleteLink(db: SqlExecutor, projectId: string, id: string): Promise<boolean> {
  return (
    (await db.query('DELETE FROM business_links WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id]))
      .length === 1
  );
}

/** Live skills whose mdm_references name the key (the implicit "references" link). */
export async function skillsReferencing(
  db: SqlExecutor,
  projectId: string,
  key: string,
): Promise<{ id: string; name: string; description: string }[]> {
  return db.query(
    `SELECT id, name, description FROM skills WHERE project_id = $1 AND deleted_at IS NULL AND mdm_references @> ARRAY[$2]::text[] ORDER BY name LIMIT 200`,
    [projectId, key],
  );
}

/**
 * A Skill's keys: its references (in their order), then the keys it links to, with their labels
 * (null for a reference the taxonomy does not hold).
 */
export async function skillKeys(
  db: SqlExecutor,
  projectId: string,
  skillId: string,
  references: string[],
): Promise<{ key: string; label: string | null }[]> {
  return db.query(
    `WITH refs AS (
       SELECT key, ord FROM unnest($3::text[]) WITH ORDINALITY AS r(key, ord)
       UNION ALL
       SELECT business_key, 1000000 FROM business_links
       WHERE project_id = $1 AND source_type = 'skill' AND source_id = $2 AND NOT (business_key = ANY($3::text[]))
     )
     , firsts AS (SELECT key, min(ord) AS ord FROM refs GROUP BY key)
     SELECT f.key, k.label FROM firsts f LEFT JOIN business_keys k ON k.project_id = $1 AND k.key = f.key
     ORDER BY f.ord, f.key`,
    [projectId, skillId, references],
  );
}

/**
 * Live Knowledge sheets linked to any key the Skill references or links to, one row per sheet (its
 * `explains` link when it has one), `explains` first, then by topic id; `total` counts them all.
 */
export async function knowledgeForSkill(
  db: SqlExecutor,
  projectId: string,
  skillId: string,
  references: string[],
  limit: number,
): Promise<{ topic_id: string; title: string; business_key: string; relation_type: string; total: number }[]> {
  return db.query(
    `WITH keys AS (
       SELECT unnest($3::text[]) AS key
       UNION SELECT business_key FROM business_links WHERE project_id = $1 AND source_type = 'skill' AND source_id = $2
     ), linked AS (
       SELECT DISTINCT ON (l.source_id) l.source_id, l.business_key, l.relation_type
       FROM business_links l JOIN keys ON keys.key = l.business_key
       WHERE l.project_id = $1 AND l.source_type = 'knowledge'
       ORDER BY l.source_id, (l.relation_type = 'explains') DESC, l.business_key
     )
     SELECT k.topic_id, k.title, linked.business_key, linked.relation_type, count(*) OVER ()::int AS total
     FROM linked JOIN knowledge k ON k.id = linked.source_id AND k.project_id = $1 AND k.deleted_at IS NULL
     ORDER BY (linked.relation_type = 'explains') DESC, k.topic_id
     LIMIT $4`,
    [projectId, skillId, references, limit],
  );
}
