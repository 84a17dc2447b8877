import type { SqlExecutor } from '../../platform/db/database.js';

/** MCP's bound on one completion answer. */
export const MAX_COMPLETION_VALUES = 100;
/** pg_trgm similarity below which a value that neither starts with nor contains the text is left out. */
export const MIN_SIMILARITY = 0.2;

export interface RankedValues {
  values: string[];
  /** How many values matched in all (a lower bound when `capped`). */
  total: number;
}

/**
 * One ranking for every kind of value: values that start with the typed text first,
 * then by pg_trgm similarity, then alphabetically; a value that neither starts with, contains nor
 * resembles the text is left out, and an empty text matches everything. `candidates` is SQL
 * producing the column `v` (distinct values); `$2` is the typed text. The statement shapes are
 * fixed (no value in the text), as PGlite keeps one prepared statement per distinct SQL text.
 */
function ranked(candidates: string): string {
  return `WITH c(v) AS (${candidates}), t(q) AS (SELECT lower($2::text))
    SELECT v, count(*) OVER ()::int AS total FROM c, t
    WHERE q = '' OR starts_with(lower(v), q) OR strpos(lower(v), q) > 0 OR similarity(lower(v), q) >= ${MIN_SIMILARITY}
    ORDER BY starts_with(lower(v), q) DESC, similarity(lower(v), q) DESC, v
    LIMIT ${MAX_COMPLETION_VALUES}`;
}

async function run(db: SqlExecutor, sql: string, first: unknown, typed: string): Promise<RankedValues> {
  const rows = await db.query<{ v: string; total: number }>(sql, [first, typed]);
  return { values: rows.map((r) => r.v), total: rows[0]?.total ?? 0 };
}

const AMONG = ranked('SELECT DISTINCT unnest($1::text[])');
const SKILL_NAMES = ranked('SELECT name FROM skills WHERE project_id = $1 AND deleted_at IS NULL');
const TOPIC_IDS = ranked('SELECT topic_id FROM knowledge WHERE project_id = $1 AND deleted_at IS NULL');
const BUSINESS_KEYS = ranked('SELECT key FROM business_keys WHERE project_id = $1');
// The channels of the project's KPI rows (its primary key leads with project_id).
const CHANNELS = ranked('SELECT DISTINCT channel FROM kpis_daily WHERE project_id = $1');
// The most recent runs only: a run id is completed to follow a run just started.
const RUN_IDS = ranked(
  'SELECT id FROM (SELECT id FROM datastream_runs WHERE project_id = $1 ORDER BY queued_at DESC, id DESC LIMIT 1000) r',
);

/** Values of a list the caller already holds (project ids, metric names), ranked as the rest. */
export function rankAmong(db: SqlExecutor, values: readonly string[], typed: string): Promise<RankedValues> {
  return run(db, AMONG, values, typed);
}

export const skillNames = (db: SqlExecutor, projectId: string, typed: string) => run(db, SKILL_NAMES, projectId, typed);
export const topicIds = (db: SqlExecutor, projectId: string, typed: string) => run(db, TOPIC_IDS, projectId, typed);
export const businessKeys = (db: SqlExecutor, projectId: string, typed: string) =>
  run(db, BUSINESS_KEYS, projectId, typed);
export const channels = (db: SqlExecutor, projectId: string, typed: string) => run(db, CHANNELS, projectId, typed);
export const runIds = (db: SqlExecutor, projectId: string, typed: string) => run(db, RUN_IDS, projectId, typed);
