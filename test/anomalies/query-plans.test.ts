import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lookbackDays,
  effective,
  CARRIED_STATE_SQL,
  EXCLUDED_DAYS_SQL,
  QUIET_DAYS_SQL,
  readState,
} from '../../src/modules/anomalies/index.js';
import type { SqlExecutor } from '../../src/platform/db/database.js';
import { addDays } from '../../src/platform/calendar.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/stores.js';

/**
 * The plans a one-day evaluation depends on. Its read of what earlier days left behind
 * (detection.state.ts readState) must find the few rows that carry state through indexes, not read
 * every stored day of the history: a condition added to the state query once took it off its
 * partial index (anomalies_daily_state, migration 0031) and doubled the one-day pass's read phase,
 * which only a benchmark noticed. The statements explained are the ones readState issued, captured
 * on their way to the store, with their parameters. PostgreSQL only (skipped unless
 * TEST_DATABASE_URL is set): the deployments with many projects run on it, and PGlite's planner is
 * the same code, so a second run would add time, not coverage.
 */

const PROJECTS = 6;
const CHANNELS = ['google', 'meta', 'tiktok', '_total'];
const METRICS = ['spend', 'revenue', 'conversions', 'clicks', 'impressions', 'roas', 'cpa', 'ctr', 'cvr'];
/** 400 days of every series (86,400 rows); the one-day pass of FROM reads the few of its last 56 that carry state. */
const FIRST_DAY = '2025-01-01';
const DAYS = 400;
const FROM = addDays(FIRST_DAY, DAYS);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe.skipIf(!TEST_DATABASE_URL)('anomaly evaluator query plans [postgres only: set TEST_DATABASE_URL]', () => {
  let store: TestDatabase;
  const issued: { text: string; params: readonly unknown[] }[] = [];
  let states: Awaited<ReturnType<typeof readState>>;

  beforeAll(async () => {
    store = await openTestDatabase('postgres');
    // Every series: a fired day (excluded, a run of one) every 50 days; in a fifth of the series a
    // level shift a month before FROM whose anchor the next 20 days carry; the other days ok, most
    // with a small z.
    await store.db.query(
      `INSERT INTO anomalies_daily (project_id, date, metric, channel, value, baseline_mean, baseline_stddev,
         training_size, window_from, window_to, seasonality, z, relative_change, threshold, min_relative_change, watch,
         direction, fired, status, excluded, anchor_date, run_days)
       SELECT 'proj_' || p, day, m, c, 100, 100, 10, 56, day - 56, day - 1, 'none', z, 0, 3.5, 0.05, 'both',
         CASE WHEN fired THEN 'spike' END, fired, CASE WHEN fired THEN 'fired' ELSE 'ok' END, fired,
         CASE WHEN shifted THEN $1::date + $5::int - 30 END, CASE WHEN fired THEN 1 ELSE 0 END
       FROM generate_series(1, $2::int) AS p, unnest($3::text[]) WITH ORDINALITY AS ch(c, ci),
         unnest($4::text[]) WITH ORDINALITY AS me(m, mi), generate_series(0, $5::int - 1) AS g,
         LATERAL (SELECT $1::date + g AS day, (g + 7 * p + 3 * ci + 11 * mi) % 50 = 0 AS fired,
           (p + mi) % 5 = 0 AND g BETWEEN $5::int - 30 AND $5::int - 11 AS shifted,
           CASE WHEN (g + mi) % 3 = 0 THEN 0 ELSE ((g % 7) - 3) / 2.0 END AS z) AS day_row`,
      [FIRST_DAY, PROJECTS, CHANNELS, METRICS, DAYS],
    );
    // Statistics of every row (ANALYZE samples 300 × the target): the plans do not depend on
    // which rows a default-sized sample happened to hold.
    await store.db.transaction(async (tx) => {
      await tx.query('SET LOCAL default_statistics_target = 1000');
      await tx.query('ANALYZE anomalies_daily, anomaly_triage, anomaly_episodes');
    });
    // What the service's one-day evaluation of FROM reads (anomalies.service.ts: the history
    // before `from` its settings look back over), captured statement by statement.
    const settings = effective({});
    const recorder: SqlExecutor = {
      query: (text, params) => {
        issued.push({ text, params: params ?? [] });
        return store.db.query(text, params);
      },
    };
    const projectIds = Array.from({ length: PROJECTS }, (_, i) => `proj_${i + 1}`);
    const series = projectIds.flatMap((p) => CHANNELS.flatMap((c) => METRICS.map((m) => [p, c, m] as const)));
    states = await readState(
      recorder,
      projectIds,
      series,
      addDays(FROM, -lookbackDays(settings)),
      FROM,
      FROM,
      settings.precedent_days,
      settings.sustained_days,
    );
  }, 120_000);
  afterAll(async () => {
    await store?.drop();
  });

  /** Every node of a statement's plan, as PostgreSQL plans it with these parameters. */
  async function planOf(text: string, params: readonly unknown[]): Promise<PlanNode[]> {
    const [row] = await store.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
    return nodesOf(row!['QUERY PLAN'][0].Plan);
  }
  /** The plan of a statement readState issued (it must have issued it), with the parameters it gave. */
  async function planOfIssued(sql: string): Promise<PlanNode[]> {
    const statement = issued.find((s) => s.text === sql);
    expect(statement, 'readState no longer issues this statement').toBeDefined();
    return planOf(statement!.text, statement!.params);
  }
  const seqScanned = (nodes: PlanNode[]) =>
    nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
  const indexes = (nodes: PlanNode[]) => [...new Set(nodes.flatMap((n) => n['Index Name'] ?? []))];

  it('reads the plans it asserts on (a scan of the whole table is seen as one)', async () => {
    expect(seqScanned(await planOf('SELECT count(*) FROM anomalies_daily WHERE value > $1', [0]))).toContain(
      'anomalies_daily',
    );
  });

  it('finds the rows that carry a level shift or a run through the partial index anomalies_daily_state', async () => {
    // The rows it finds are there: level shifts in effect, and runs that reach the day before FROM.
    expect([...states.values()].filter((s) => s.anchor !== null).length).toBeGreaterThan(0);
    expect([...states.values()].filter((s) => s.run !== null).length).toBeGreaterThan(0);
    const nodes = await planOfIssued(CARRIED_STATE_SQL);
    expect(seqScanned(nodes)).not.toContain('anomalies_daily');
    expect(indexes(nodes)).toEqual(['anomalies_daily_state']);
  });

  it('reads the quiet days before the range per series through the primary key', async () => {
    // The quiet days are there: a one-day pass continues the sums of the day before it.
    expect([...states.values()].filter((s) => s.quiet?.length).length).toBeGreaterThan(0);
    const nodes = await planOfIssued(QUIET_DAYS_SQL);
    expect(seqScanned(nodes)).not.toContain('anomalies_daily');
    expect(indexes(nodes)).toEqual(['anomalies_daily_pkey']);
  });

  it('reads the excluded days without scanning anomalies_daily', async () => {
    expect(seqScanned(await planOfIssued(EXCLUDED_DAYS_SQL))).not.toContain('anomalies_daily');
  });
});
