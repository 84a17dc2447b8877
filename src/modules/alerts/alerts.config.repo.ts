import type { SqlExecutor } from '../../platform/db/database.js';
import type { DestinationKind } from './alerts.schemas.js';

// Destinations, rules and mutes: what a project configured. SQL only.

export interface DestinationRow {
  id: string;
  project_id: string;
  name: string;
  kind: DestinationKind;
  config: Record<string, unknown>;
  secrets_ciphertext: Uint8Array;
  enabled: boolean;
  last_test: Record<string, unknown> | null;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
}

const DESTINATION = `id, project_id, name, kind, config, secrets_ciphertext, enabled, last_test, created_at, created_by,
  updated_at, updated_by`;

export async function insertDestination(
  db: SqlExecutor,
  d: Omit<DestinationRow, 'last_test' | 'created_at' | 'created_by' | 'updated_at' | 'updated_by'> & {
    actor: string;
    now: Date;
  },
): Promise<DestinationRow> {
  const [row] = await db.query<DestinationRow>(
    `INSERT INTO alert_destinations (id, project_id, name, kind, config, secrets_ciphertext, enabled, created_at, created_by,
       updated_at, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $9) RETURNING ${DESTINATION}`,
    [d.id, d.project_id, d.name, d.kind, d.config, Buffer.from(d.secrets_ciphertext), d.enabled, d.now, d.actor],
  );
  return row!;
}

export async function updateDestination(
  db: SqlExecutor,
  id: string,
  d: Pick<DestinationRow, 'name' | 'config' | 'enabled'> & { secrets: Uint8Array; actor: string; now: Date },
): Promise<DestinationRow | undefined> {
  const [row] = await db.query<DestinationRow>(
    `UPDATE alert_destinations SET name = $2, config = $3, secrets_ciphertext = $4, enabled = $5, updated_at = $6,
       updated_by = $7 WHERE id = $1 RETURNING ${DESTINATION}`,
    [id, d.name, d.config, Buffer.from(d.secrets), d.enabled, d.now, d.actor],
  );
  return row;
}

export async function recordTest(db: SqlExecutor, id: string, outcome: Record<string, unknown>): Promise<void> {
  await db.query('UPDATE alert_destinations SET last_test = $2 WHERE id = $1', [id, outcome]);
}

export async function findDestination(db: SqlExecutor, id: string): Promise<DestinationRow | undefined> {
  const [row] = await db.query<DestinationRow>(`SELECT ${DESTINATION} FROM alert_destinations WHERE id = $1`, [id]);
  return row;
}

export async function listDestinations(
  db: SqlExecutor,
  projectId: string,
  after: string | undefined,
  limit: number,
): Promise<DestinationRow[]> {
  return db.query<DestinationRow>(
    `SELECT ${DESTINATION} FROM alert_destinations WHERE project_id = $1 AND ($2::text IS NULL OR name > $2)
     ORDER BY name LIMIT $3`,
    [projectId, after ?? null, limit],
  );
}

export async function deleteDestination(db: SqlExecutor, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM alert_destinations WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** The rules that send to each destination, by destination id. */
export async function rulesUsing(db: SqlExecutor, destinationIds: string[]): Promise<Map<string, RuleRef[]>> {
  const rows = await db.query<RuleRef & { destination_id: string }>(
    `SELECT rd.destination_id, r.id, r.name FROM alert_rule_destinations rd JOIN alert_rules r ON r.id = rd.rule_id
     WHERE rd.destination_id = ANY($1::text[]) ORDER BY r.name`,
    [destinationIds],
  );
  const out = new Map<string, RuleRef[]>();
  for (const r of rows) out.set(r.destination_id, [...(out.get(r.destination_id) ?? []), { id: r.id, name: r.name }]);
  return out;
}

export interface RuleRef {
  id: string;
  name: string;
}

export interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  sources: string[];
  filters: Record<string, unknown>;
  quiet_hours: { from: string; to: string } | null;
  enabled: boolean;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
  destinations: { id: string; name: string; kind: string; enabled: boolean }[];
}

const RULE = `r.id, r.project_id, r.name, r.sources, r.filters, r.quiet_hours, r.enabled, r.created_at, r.created_by,
  r.updated_at, r.updated_by,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name, 'kind', d.kind, 'enabled', d.enabled)
              ORDER BY d.id)
            FROM alert_rule_destinations rd JOIN alert_destinations d ON d.id = rd.destination_id
            WHERE rd.rule_id = r.id), '[]'::jsonb) AS destinations`;

export interface RuleWrite {
  name: string;
  sources: string[];
  filters: Record<string, unknown>;
  quiet_hours: { from: string; to: string } | null;
  enabled: boolean;
  destinations: string[];
  actor: string;
  now: Date;
}

export async function insertRule(db: SqlExecutor, r: RuleWrite & { id: string; project_id: string }): Promise<void> {
  await db.query(
    `INSERT INTO alert_rules (id, project_id, name, sources, filters, quiet_hours, enabled, created_at, created_by,
       updated_at, updated_by) VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $8, $9)`,
    [r.id, r.project_id, r.name, r.sources, r.filters, r.quiet_hours, r.enabled, r.now, r.actor],
  );
  await setRuleDestinations(db, r.id, r.destinations);
}

export async function updateRule(db: SqlExecutor, id: string, r: RuleWrite): Promise<boolean> {
  const rows = await db.query(
    `UPDATE alert_rules SET name = $2, sources = $3::text[], filters = $4, quiet_hours = $5, enabled = $6,
       updated_at = $7, updated_by = $8 WHERE id = $1 RETURNING id`,
    [id, r.name, r.sources, r.filters, r.quiet_hours, r.enabled, r.now, r.actor],
  );
  if (rows.length === 0) return false;
  await setRuleDestinations(db, id, r.destinations);
  return true;
}

async function setRuleDestinations(db: SqlExecutor, ruleId: string, destinationIds: string[]): Promise<void> {
  await db.query('DELETE FROM alert_rule_destinations WHERE rule_id = $1', [ruleId]);
  await db.query(
    `INSERT INTO alert_rule_destinations (rule_id, destination_id) SELECT $1, d FROM unnest($2::text[]) AS d`,
    [ruleId, destinationIds],
  );
}

export async function findRule(db: SqlExecutor, id: string): Promise<RuleRow | undefined> {
  const [row] = await db.query<RuleRow>(`SELECT ${RULE} FROM alert_rules r WHERE r.id = $1`, [id]);
  return row;
}

export async function listRules(
  db: SqlExecutor,
  projectId: string,
  after: string | undefined,
  limit: number,
): Promise<RuleRow[]> {
  return db.query<RuleRow>(
    `SELECT ${RULE} FROM alert_rules r WHERE r.project_id = $1 AND ($2::text IS NULL OR r.name > $2)
     ORDER BY r.name LIMIT $3`,
    [projectId, after ?? null, limit],
  );
}

/** Enabled rules of a project listening to any of `sources` that existed when the fact occurred. */
export async function rulesFor(
  db: SqlExecutor,
  projectId: string,
  sources: string[],
  occurredAt: Date,
): Promise<RuleRow[]> {
  return db.query<RuleRow>(
    `SELECT ${RULE} FROM alert_rules r WHERE r.project_id = $1 AND r.enabled AND r.sources && $2::text[]
       AND r.created_at <= $3 ORDER BY r.id`,
    [projectId, sources, occurredAt],
  );
}

export async function deleteRule(db: SqlExecutor, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM alert_rules WHERE id = $1 RETURNING id', [id])).length > 0;
}

export async function existingDestinations(db: SqlExecutor, projectId: string, ids: string[]): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM alert_destinations WHERE project_id = $1 AND id = ANY($2::text[])',
    [projectId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

export interface MuteDbRow {
  id: string;
  project_id: string;
  rule_id: string | null;
  metric: string | null;
  channel: string | null;
  until: string;
  reason: string;
  created_at: Date;
  created_by: string;
}

const MUTE = 'id, project_id, rule_id, metric, channel, until, reason, created_at, created_by';

export async function insertMute(
  db: SqlExecutor,
  m: Omit<MuteDbRow, 'created_at' | 'created_by'> & { actor: string; now: Date },
): Promise<MuteDbRow> {
  const [row] = await db.query<MuteDbRow>(
    `INSERT INTO alert_mutes (id, project_id, rule_id, metric, channel, until, reason, created_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${MUTE}`,
    [m.id, m.project_id, m.rule_id, m.metric, m.channel, m.until, m.reason, m.now, m.actor],
  );
  return row!;
}

export async function updateMute(
  db: SqlExecutor,
  id: string,
  m: { until: string; reason: string },
): Promise<MuteDbRow | undefined> {
  const [row] = await db.query<MuteDbRow>(
    `UPDATE alert_mutes SET until = $2, reason = $3 WHERE id = $1 RETURNING ${MUTE}`,
    [id, m.until, m.reason],
  );
  return row;
}

export async function findMute(db: SqlExecutor, id: string): Promise<MuteDbRow | undefined> {
  const [row] = await db.query<MuteDbRow>(`SELECT ${MUTE} FROM alert_mutes WHERE id = $1`, [id]);
  return row;
}

/** Newest `until` first; the cursor is (until, id). */
export async function listMutes(
  db: SqlExecutor,
  projectId: string,
  after: [string, string] | undefined,
  limit: number,
): Promise<MuteDbRow[]> {
  return db.query<MuteDbRow>(
    `SELECT ${MUTE} FROM alert_mutes WHERE project_id = $1
       AND ($2::date IS NULL OR (until, id) < ($2::date, $3::text))
     ORDER BY until DESC, id DESC LIMIT $4`,
    [projectId, after?.[0] ?? null, after?.[1] ?? null, limit],
  );
}

export async function activeMutes(db: SqlExecutor, projectId: string, today: string): Promise<MuteDbRow[]> {
  return db.query<MuteDbRow>(`SELECT ${MUTE} FROM alert_mutes WHERE project_id = $1 AND until >= $2`, [
    projectId,
    today,
  ]);
}

export async function deleteMute(db: SqlExecutor, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM alert_mutes WHERE id = $1 RETURNING id', [id])).length > 0;
}
