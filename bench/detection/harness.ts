// Runs labelled series through the real service for bench:detection: each series becomes a
// project whose CSV export is read by a real datastream (csv provider → raw landing →
// ad_performance_daily → kpis_daily → anomalies_daily, through the jobs platform), then each
// detector is the project's anomaly settings, applied by the operator's re-evaluation
// (AnomaliesService.evaluate, what POST /api/anomalies/evaluate calls). Only the fired days (or
// the first day of each anomaly episode, where the store has episodes) are read back.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createServiceApp } from '../../src/app/service-app.js';
import { addDays } from '../../src/platform/calendar.js';
import { METRICS, AnomalySettingsInput } from '../../src/modules/anomalies/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import type { Database } from '../../src/platform/db/database.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { PostgresDatabase } from '../../src/platform/db/postgres.js';
import { createLogger } from '../../src/platform/logger.js';
import type { DayRow } from './synthetic.js';

export interface BenchSeries {
  name: string;
  category: string;
  metric: string;
  rows: DayRow[];
  windows: [string, string][];
  /** Context events the project records (the synthetic series' holidays; NAB has none). */
  events?: { event_type: string; title: string; from: string; to: string }[];
}

export interface Detector {
  name: string;
  /** The project's anomaly settings (keys the evaluator does not know yet are dropped, and said). */
  settings: Record<string, unknown>;
}

export interface StoreRun {
  store: string;
  /** 'episodes': the first day of each anomaly; 'fired days': every fired day (no episodes table). */
  detection: 'episodes' | 'fired days';
  /** Per detector: the settings actually applied, and per series the detection dates. */
  detectors: { name: string; applied: Record<string, unknown>; dropped: string[]; detections: Map<string, string[]> }[];
  ingest_s: number;
  evaluate_s: Record<string, number>;
}

export const CHANNEL = 'bench';
// After the bundled exchange-rate snapshot's last day (a clock before it refuses the snapshot).
const TODAY = '2026-04-20';
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The settings with the keys this revision's evaluator does not accept removed (the rule's new
 * settings land on another branch): zod names each unrecognized key with its path.
 */
export function applicable(settings: Record<string, unknown>): { applied: Record<string, unknown>; dropped: string[] } {
  const applied = structuredClone(settings);
  const dropped: string[] = [];
  for (let round = 0; round < 5; round++) {
    const parsed = AnomalySettingsInput.safeParse(applied);
    if (parsed.success) return { applied, dropped };
    const unknown = parsed.error.issues.filter((i) => i.code === 'unrecognized_keys');
    if (!unknown.length) throw new Error(`detector settings refused: ${parsed.error.message}`);
    for (const issue of unknown) {
      let at = applied as Record<string, unknown>;
      for (const p of issue.path) at = at[p as string] as Record<string, unknown>;
      for (const key of issue.keys) {
        delete at[key];
        dropped.push([...issue.path, key].join('.'));
      }
    }
  }
  throw new Error('detector settings: unrecognized keys remain');
}

const seconds = (start: number) => (performance.now() - start) / 1000;

/**
 * The detector's settings with every metric but the watched one disabled: the rule runs per series,
 * so this measures the same rule (9 times faster), and no other series of the project can explain
 * the watched one's day away (the explained pass reports a ratio under the part that moved it).
 */
export function watchingOnly(settings: Record<string, unknown>, metric: string): AnomalySettingsInput {
  const metrics = { ...((settings.metrics ?? {}) as Record<string, Record<string, unknown>>) };
  for (const m of METRICS) if (m !== metric) metrics[m] = { ...metrics[m], enabled: false };
  return { ...settings, metrics } as AnomalySettingsInput;
}

async function onStore<T>(store: string, dataDir: string, fn: (db: Database) => Promise<T>): Promise<T> {
  if (store === 'pglite') {
    const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite'), templateTarball: PGLITE_TEMPLATE });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    const db = new PostgresDatabase({ url: PG_URL, schema, maxConnections: 5 });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
  }
}

function csvOf(rows: DayRow[]): string {
  const lines = ['date,campaign,spend,revenue,conversions,clicks,impressions'];
  for (const r of rows)
    lines.push(`${r.date},c1,${r.spend},${r.revenue},${r.conversions},${r.clicks},${r.impressions}`);
  return `${lines.join('\n')}\n`;
}

export async function runOnStore(
  store: string,
  series: BenchSeries[],
  detectors: Detector[],
  log: (line: string) => void,
  /** 'days' reads every fired day even where the store has episodes (to compare with older runs). */
  detection: 'auto' | 'days' = 'auto',
): Promise<StoreRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-detect-'));
  try {
    return await onStore(store, dataDir, async (db) => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
        LOG_LEVEL: 'silent',
        PORT: '0',
      });
      const clock = new ManualClock(`${TODAY}T12:00:00Z`);
      const app = await createServiceApp({
        config,
        db,
        clock,
        logger: createLogger({ level: 'warn' }),
      });
      try {
        const ctx = app.systemContext();
        const s = app.services;
        await app.jobs.start();
        const projectOf = new Map<string, string>();
        const started = performance.now();
        for (const [i, one] of series.entries()) {
          const projectId = `proj_det${String(i).padStart(3, '0')}`;
          projectOf.set(one.name, projectId);
          fs.writeFileSync(path.join(dataDir, `${projectId}.csv`), csvOf(one.rows));
          await s.projects.create(ctx, { id: projectId, name: one.name, reporting_currency: 'EUR', timezone: 'UTC' });
          await s.credentials.upsert(ctx, {
            project_id: projectId,
            provider: 'csv',
            connection_ref_id: 'export',
            config: {
              path: `${projectId}.csv`,
              mapping: {
                date: 'date',
                campaign_id: 'campaign',
                spend: 'spend',
                revenue: 'revenue',
                conversions: 'conversions',
                clicks: 'clicks',
                impressions: 'impressions',
              },
              defaults: { channel: CHANNEL, currency: 'EUR' },
            },
          });
          const ds = await s.flows.upsert(ctx, {
            project_id: projectId,
            kind: 'datastream',
            definition: {
              name: 'labelled series',
              connection_ref_id: 'export',
              provider: 'csv',
              cadence: 'manual',
              retrieval_window: { lookback_days: 1, start_date: one.rows[0].date },
            },
          });
          if (ds.kind !== 'datastream') throw new Error('unexpected flow kind');
          // The first run backfills from start_date to today: "today" is the day after the series,
          // so the run's window (and the per-day work of its models) is the series' own days.
          clock.set(`${addDays(one.rows.at(-1)!.date, 1)}T12:00:00Z`);
          const queued = await s.flows.runNow(ctx, ds.datastream.id);
          for (;;) {
            const r = await s.flows.getRun(queued.id);
            if (r?.status === 'succeeded') break;
            if (r?.status === 'failed') throw new Error(`${one.name}: run failed: ${r.error}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          const kpis = await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM kpis_daily WHERE project_id = $1 AND channel = $2',
            [projectId, CHANNEL],
          );
          if (kpis[0].n !== one.rows.length)
            throw new Error(`${one.name}: ${kpis[0].n} kpi days for ${one.rows.length} rows`);
        }
        clock.set(`${TODAY}T12:00:00Z`);
        // The events every detector's evaluation sees (only settings with expected_event_types read them).
        for (const one of series)
          for (const e of one.events ?? [])
            await s.contextEvents.create(ctx, {
              project_id: projectOf.get(one.name)!,
              event_type: e.event_type,
              title: e.title,
              event_date: e.from,
              end_date: e.to === e.from ? null : e.to,
              impact_window_days: 0,
            });
        const ingest_s = seconds(started);
        log(`${store}: ingested ${series.length} series in ${ingest_s.toFixed(1)} s`);

        const episodes =
          detection === 'auto' &&
          (await db.query<{ t: string | null }>(`SELECT to_regclass('anomaly_episodes')::text AS t`))[0].t !== null;
        const run: StoreRun = {
          store,
          detection: episodes ? 'episodes' : 'fired days',
          detectors: [],
          ingest_s,
          evaluate_s: {},
        };
        for (const d of detectors) {
          const { applied, dropped } = applicable(d.settings);
          const detections = new Map<string, string[]>();
          const t = performance.now();
          for (const one of series) {
            const projectId = projectOf.get(one.name)!;
            await s.evaluators.anomalies.putSettings(ctx, projectId, watchingOnly(applied, one.metric));
            await s.evaluators.anomalies.evaluate(ctx, { project_id: projectId });
            const rows = await db.query<{ d: string }>(
              episodes
                ? `SELECT first_date::text AS d FROM anomaly_episodes
                   WHERE project_id = $1 AND metric = $2 AND channel = $3 ORDER BY first_date`
                : `SELECT date::text AS d FROM anomalies_daily
                   WHERE project_id = $1 AND metric = $2 AND channel = $3 AND fired ORDER BY date`,
              [projectId, one.metric, CHANNEL],
            );
            detections.set(
              one.name,
              rows.map((r) => r.d),
            );
          }
          run.evaluate_s[d.name] = seconds(t);
          log(`${store}: ${d.name} evaluated in ${run.evaluate_s[d.name].toFixed(1)} s`);
          run.detectors.push({ name: d.name, applied, dropped, detections });
        }
        return run;
      } finally {
        await app.close();
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
