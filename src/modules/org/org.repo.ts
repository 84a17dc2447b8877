import type { SqlExecutor } from '../../platform/db/database.js';
import type { Role } from '../../platform/auth/permissions.js';

/** SQL only for the organization: settings, members, grants and the audit log. No rules here. */

export interface SettingsRow {
  id: string;
  name: string;
  default_reporting_currency: string;
  default_timezone: string;
  limits: Record<string, unknown>;
  updated_at: Date;
}

export async function readSettings(db: SqlExecutor): Promise<SettingsRow> {
  const row = (
    await db.query<SettingsRow>(
      "SELECT id, name, default_reporting_currency, default_timezone, limits, updated_at FROM org_settings WHERE id = 'org'",
    )
  )[0];
  if (!row) throw new Error('org_settings row is missing (migration 0001 inserts it)');
  return row;
}

export async function updateSettings(
  db: SqlExecutor,
  patch: {
    name?: string;
    default_reporting_currency?: string;
    default_timezone?: string;
    limits?: Record<string, number>;
  },
  now: Date,
): Promise<SettingsRow> {
  const rows = await db.query<SettingsRow>(
    `UPDATE org_settings SET name = COALESCE($1, name),
       default_reporting_currency = COALESCE($2, default_reporting_currency),
       default_timezone = COALESCE($3, default_timezone),
       limits = limits || COALESCE($4::jsonb, '{}'::jsonb),
       updated_at = $5
     WHERE id = 'org'
     RETURNING id, name, default_reporting_currency, default_timezone, limits, updated_at`,
    [
      patch.name ?? null,
      patch.default_reporting_currency ?? null,
      patch.default_timezone ?? null,
      patch.limits ? JSON.stringify(patch.limits) : null,
      now,
    ],
  );
  return rows[0]!;
}

export interface MemberRow {
  subject: string;
  email: string | null;
  role: Role;
  created_at: Date;
  created_by: string;
  updated_at: Date;
}

export interface GrantRow {
  subject: string;
  project_id: string;
  role: Exclude<Role, 'owner'>;
  created_at: Date;
}

const MEMBER_COLUMNS = 'subject, email, role, created_at, created_by, updated_at';

export async function insertMember(
  db: SqlExecutor,
  row: { subject: string; email: string | null; role: Role; created_by: string; now: Date },
): Promise<MemberRow | undefined> {
  return (
    await db.query<MemberRow>(
      `INSERT INTO org_members (subject, email, role, created_at, created_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $4) ON CONFLICT (subject) DO NOTHING RETURNING ${MEMBER_COLUMNS}`,
      [row.subject, row.email, row.role, row.now, row.created_by],
    )
  )[0];
}

export async function findMember(db: SqlExecutor, subject: string, forUpdate = false): Promise<MemberRow | undefined> {
  return (
    await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM org_members WHERE subject = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [subject],
    )
  )[0];
}

export async function listMembers(
  db: SqlExecutor,
  options: { after?: string; limit: number; role?: Role },
): Promise<MemberRow[]> {
  return db.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM org_members
     WHERE ($1::text IS NULL OR subject > $1) AND ($2::text IS NULL OR role = $2)
     ORDER BY subject LIMIT $3`,
    [options.after ?? null, options.role ?? null, options.limit],
  );
}

export async function updateMember(
  db: SqlExecutor,
  subject: string,
  patch: { email?: string | null; role?: Role },
  now: Date,
): Promise<MemberRow | undefined> {
  return (
    await db.query<MemberRow>(
      `UPDATE org_members SET email = CASE WHEN $2::boolean THEN $3 ELSE email END, role = COALESCE($4, role), updated_at = $5
       WHERE subject = $1 RETURNING ${MEMBER_COLUMNS}`,
      [subject, patch.email !== undefined, patch.email ?? null, patch.role ?? null, now],
    )
  )[0];
}

export async function deleteMember(db: SqlExecutor, subject: string): Promise<boolean> {
  return (await db.query('DELETE FROM org_members WHERE subject = $1 RETURNING subject', [subject])).length > 0;
}

export async function countMembers(db: SqlExecutor, role?: Role): Promise<number> {
  return (
    await db.query<{ n: number }>('SELECT count(*) AS n FROM org_members WHERE ($1::text IS NULL OR role = $1)', [
      role ?? null,
    ])
  )[0]!.n;
}

/** Serializes changes that count owners or members (last-owner rule, member limit). */
export async function lockMembers(db: SqlExecutor): Promise<void> {
  await db.query("SELECT id FROM org_settings WHERE id = 'org' FOR UPDATE");
}

export async function grantsOf(db: SqlExecutor, subjects: string[]): Promise<GrantRow[]> {
  if (subjects.length === 0) return [];
  return db.query<GrantRow>(
    'SELECT subject, project_id, role, created_at FROM org_member_grants WHERE subject = ANY($1::text[]) ORDER BY subject, project_id',
    [subjects],
  );
}

export async function replaceGrants(
  db: SqlExecutor,
  subject: string,
  grants: { project_id: string; role: string }[],
  now: Date,
): Promise<void> {
  await db.query('DELETE FROM org_member_grants WHERE subject = $1', [subject]);
  if (grants.length === 0) return;
  await db.query(
    `INSERT INTO org_member_grants (subject, project_id, role, created_at)
     SELECT $1, p, r, $4 FROM unnest($2::text[], $3::text[]) AS g(p, r)`,
    [subject, grants.map((g) => g.project_id), grants.map((g) => g.role), now],
  );
}

export async function existingProjectIds(db: SqlExecutor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>('SELECT id FROM projects WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

export async function countProjects(db: SqlExecutor): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*) AS n FROM projects'))[0]!.n;
}

export interface AuditRow {
  id: number;
  at: Date;
  actor_subject: string;
  actor_kind: string;
  request_id: string;
  action: string;
  target: string;
  project_id: string | null;
  details: Record<string, unknown>;
}

export async function insertAudit(db: SqlExecutor, row: Omit<AuditRow, 'id'>): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor_subject, actor_kind, request_id, action, target, project_id, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
    [
      row.at,
      row.actor_subject,
      row.actor_kind,
      row.request_id,
      row.action,
      row.target,
      row.project_id,
      JSON.stringify(row.details),
    ],
  );
}

/** Newest first; `before` is the id of the last entry of the previous page. */
export async function listAudit(
  db: SqlExecutor,
  options: { before?: number; limit: number; action?: string; actor?: string; project_id?: string },
): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id, at, actor_subject, actor_kind, request_id, action, target, project_id, details FROM audit_log
     WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR action = $2)
       AND ($3::text IS NULL OR actor_subject = $3) AND ($4::text IS NULL OR project_id = $4)
     ORDER BY id DESC LIMIT $5`,
    [options.before ?? null, options.action ?? null, options.actor ?? null, options.project_id ?? null, options.limit],
  );
}

/** One round trip per authenticated request in oauth mode: the member and its grants. */
export async function memberWithGrants(
  db: SqlExecutor,
  subject: string,
): Promise<{ role: Role; email: string | null; grants: { project_id: string; role: Role }[] } | undefined> {
  const rows = await db.query<{ role: Role; email: string | null; project_id: string | null; grant_role: Role | null }>(
    `SELECT m.role, m.email, g.project_id, g.role AS grant_role
     FROM org_members m LEFT JOIN org_member_grants g ON g.subject = m.subject
     WHERE m.subject = $1`,
    [subject],
  );
  if (rows.length === 0) return undefined;
  return {
    role: rows[0]!.role,
    email: rows[0]!.email,
    grants: rows.filter((r) => r.project_id !== null).map((r) => ({ project_id: r.project_id!, role: r.grant_role! })),
  };
}

/**
 * Live context objects (Skills, Knowledge sheets, business keys) a project holds, and whether one
 * named `name` of `kind` is among them: a new version of an existing object counts nothing.
 */
export async function countContextObjects(
  db: SqlExecutor,
  projectId: string,
  kind: 'skill' | 'knowledge' | 'business_key',
  name: string,
): Promise<{ total: number; present: boolean }> {
  const [row] = await db.query<{ total: number; present: boolean }>(
    `SELECT
       (SELECT count(*) FROM skills WHERE project_id = $1 AND deleted_at IS NULL)
     + (SELECT count(*) FROM knowledge WHERE project_id = $1 AND deleted_at IS NULL)
     + (SELECT count(*) FROM business_keys WHERE project_id = $1) AS total,
       CASE $2
         WHEN 'skill' THEN EXISTS (SELECT 1 FROM skills WHERE project_id = $1 AND name = $3 AND deleted_at IS NULL)
         WHEN 'knowledge' THEN EXISTS (SELECT 1 FROM knowledge WHERE project_id = $1 AND topic_id = $3 AND deleted_at IS NULL)
         ELSE EXISTS (SELECT 1 FROM business_keys WHERE project_id = $1 AND key = $3)
       END AS present`,
    [projectId, kind, name],
  );
  return { total: Number(row!.total), present: row!.present };
}

/** Datastreams a project holds, and whether one is named `name`. */
export async function countDatastreams(
  db: SqlExecutor,
  projectId: string,
  name: string,
): Promise<{ total: number; present: boolean }> {
  const [row] = await db.query<{ total: number; present: boolean }>(
    `SELECT count(*) AS total, bool_or(name = $2) AS present FROM datastreams WHERE project_id = $1`,
    [projectId, name],
  );
  return { total: Number(row!.total), present: row!.present };
}
