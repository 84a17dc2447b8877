import type { SqlExecutor } from '../../platform/db/database.js';

export interface ProjectRow {
  id: string;
  name: string;
  reporting_currency: string;
  timezone: string;
  created_at: Date;
  created_by: string;
  /** How agents' writes land (publish, review, off). */
  agent_writes: AgentWrites;
}

export type AgentWrites = 'publish' | 'review' | 'off';

const COLUMNS = 'id, name, reporting_currency, timezone, created_at, created_by, agent_writes';

export async function insertProject(
  db: SqlExecutor,
  row: Omit<ProjectRow, 'created_at' | 'agent_writes'> & { now: Date },
): Promise<ProjectRow | undefined> {
  const rows = await db.query<ProjectRow>(
    `INSERT INTO projects (id, name, reporting_currency, timezone, created_at, created_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $5)
     ON CONFLICT (id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [row.id, row.name, row.reporting_currency, row.timezone, row.now, row.created_by],
  );
  return rows[0];
}

export async function findProject(db: SqlExecutor, id: string): Promise<ProjectRow | undefined> {
  return (await db.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects WHERE id = $1`, [id]))[0];
}

/**
 * Keyset page ordered by id, bytewise ("C") whatever the database's collation, so the in-memory
 * ProjectDirectory pages the same way; `ids` restricts to granted projects (undefined = all).
 */
export async function listProjects(
  db: SqlExecutor,
  options: { after?: string; limit: number; ids?: string[] },
): Promise<ProjectRow[]> {
  return db.query<ProjectRow>(
    `SELECT ${COLUMNS} FROM projects
     WHERE ($1::text IS NULL OR id > $1 COLLATE "C") AND ($2::text[] IS NULL OR id = ANY($2))
     ORDER BY id COLLATE "C" LIMIT $3`,
    [options.after ?? null, options.ids ?? null, options.limit],
  );
}

export async function countProjects(db: SqlExecutor): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*) AS n FROM projects'))[0]!.n;
}

/** Every project's id and time zone, ordered by id (the scheduler's daily slots). */
export async function listProjectZones(db: SqlExecutor): Promise<{ id: string; timezone: string }[]> {
  return db.query<{ id: string; timezone: string }>('SELECT id, timezone FROM projects ORDER BY id');
}

export async function readOrgDefaults(db: SqlExecutor): Promise<{ reporting_currency: string; timezone: string }> {
  const row = (
    await db.query<{ reporting_currency: string; timezone: string }>(
      "SELECT default_reporting_currency AS reporting_currency, default_timezone AS timezone FROM org_settings WHERE id = 'org'",
    )
  )[0];
  return row ?? { reporting_currency: 'USD', timezone: 'UTC' };
}

export async function updateProject(
  db: SqlExecutor,
  id: string,
  patch: { name?: string; reporting_currency?: string; timezone?: string; agent_writes?: AgentWrites },
  now: Date,
): Promise<ProjectRow | undefined> {
  const rows = await db.query<ProjectRow>(
    `UPDATE projects SET name = COALESCE($2, name), reporting_currency = COALESCE($3, reporting_currency),
       timezone = COALESCE($4, timezone), agent_writes = COALESCE($6, agent_writes), updated_at = $5
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, patch.name ?? null, patch.reporting_currency ?? null, patch.timezone ?? null, now, patch.agent_writes ?? null],
  );
  return rows[0];
}
