import type { SqlExecutor } from '../../platform/db/database.js';
import { daysBetween } from '../../platform/calendar.js';
import * as repo from './dq.repo.js';
import type { CheckResult } from './dq.types.js';

export interface MonitorScope {
  projectId: string;
  datastreamId: string;
  runId: string;
  from: string;
  to: string;
  cadence: string | null;
  today: string;
  reportingCurrency: string;
}

type Monitor = (db: SqlExecutor, s: MonitorScope) => Promise<CheckResult>;

/** Freshness: days between the newest data and today, against what the cadence promises. */
const freshness: Monitor = async (db, s) => {
  const last = await repo.newestDate(db, s.projectId, s.datastreamId);
  const allowed = s.cadence === 'weekly' ? 7 : 1;
  if (!last)
    return {
      monitor: 'freshness',
      dataset: 'ad_performance_daily',
      status: 'fail',
      observed: null,
      threshold: allowed,
      message: 'the datastream has no data at all',
    };
  const lag = daysBetween(last, s.today);
  const status = lag <= allowed ? 'pass' : lag <= 2 * allowed + 1 ? 'warn' : 'fail';
  return {
    monitor: 'freshness',
    dataset: 'ad_performance_daily',
    status,
    observed: lag,
    threshold: allowed,
    message: `newest data ${last}, ${lag} day(s) behind ${s.today}; the cadence allows ${allowed}`,
  };
};

/** Volume: rows of the window's last day against the mean of the 28 days before it. */
const volume: Monitor = async (db, s) => {
  const rows = await repo.volumeStats(db, s.projectId, s.datastreamId, s.to);
  const { today, mean, days } = rows[0]!;
  if (!mean || Number(days) < 7)
    return {
      monitor: 'volume',
      dataset: 'ad_performance_daily',
      status: 'pass',
      observed: Number(today),
      threshold: null,
      message: `${today} rows on ${s.to}; fewer than 7 days of history, no baseline yet`,
    };
  const ratio = Number(today) / mean;
  const off = Math.abs(1 - ratio);
  const status = off > 0.5 ? 'fail' : off > 0.25 ? 'warn' : 'pass';
  return {
    monitor: 'volume',
    dataset: 'ad_performance_daily',
    status,
    observed: round(ratio),
    threshold: 0.25,
    message: `${today} rows on ${s.to} vs a trailing mean of ${round(mean)} (ratio ${round(ratio)}; warn beyond ±25%, fail beyond ±50%)`,
  };
};

/** Null rate: key columns that arrived empty in this run's raw records. */
const nullRate: Monitor = async (db, s) => {
  const r = await repo.emptyKeyCounts(db, s.runId);
  const rate = Number(r.n) ? Number(r.empty) / Number(r.n) : 0;
  const status = rate > 0.01 ? 'fail' : rate > 0 ? 'warn' : 'pass';
  return {
    monitor: 'null_rate',
    dataset: 'raw_ad_records',
    status,
    observed: round(rate),
    threshold: 0.01,
    message: `${r.empty} of ${r.n} records have an empty campaign_id, campaign_name or channel`,
  };
};

/** Duplicates: records identical in every column (distinct ad groups of a campaign-day are not). */
const duplicates: Monitor = async (db, s) => {
  const r = await repo.duplicateCounts(db, s.runId);
  const dup = Number(r.n) - Number(r.distinct_n);
  const rate = Number(r.n) ? dup / Number(r.n) : 0;
  return {
    monitor: 'duplicates',
    dataset: 'raw_ad_records',
    status: dup > 0 ? 'warn' : 'pass',
    observed: dup,
    threshold: 0,
    message: `${dup} exact duplicate record(s) of ${r.n} (${round(rate * 100)}%)`,
  };
};

/** Currency coverage: spend in another currency with no rate, or only a rate older than 7 days. */
const currencyCoverage: Monitor = async (db, s) => {
  const rows = await repo.rateAges(db, s.runId, s.reportingCurrency);
  const missing = rows.filter((r) => r.age === null);
  const stale = rows.filter((r) => r.age !== null && Number(r.age) > 7);
  const status = missing.length ? 'fail' : stale.length ? 'warn' : 'pass';
  const worst = rows.reduce((m, r) => Math.max(m, r.age === null ? Infinity : Number(r.age)), 0);
  const list = [...missing, ...stale]
    .slice(0, 5)
    .map((r) => `${r.currency} on ${r.date}`)
    .join(', ');
  return {
    monitor: 'currency_coverage',
    dataset: 'fx_rates',
    status,
    observed: Number.isFinite(worst) ? worst : null,
    threshold: 7,
    message:
      rows.length === 0
        ? 'no spend outside the reporting currency'
        : status === 'pass'
          ? `${rows.length} currency-day pair(s) all have a rate at most 7 days old`
          : `${missing.length} pair(s) without a rate, ${stale.length} with a stale one (older than 7 days): ${list}`,
  };
};

/** Schema drift: channels or currencies the provider never sent for this datastream before. */
const schemaDrift: Monitor = async (db, s) => {
  const rows = await repo.unseenValues(db, {
    runId: s.runId,
    datastreamId: s.datastreamId,
    before: s.from,
    projectId: s.projectId,
  });
  return {
    monitor: 'schema_drift',
    dataset: 'raw_ad_records',
    status: rows.length ? 'warn' : 'pass',
    observed: rows.length,
    threshold: 0,
    message: rows.length
      ? `new values never seen before ${s.from}: ${rows
          .slice(0, 10)
          .map((r) => `${r.kind} ${r.value}`)
          .join(', ')}`
      : 'no channel or currency the datastream had not sent before',
  };
};

export const MONITORS: [string, Monitor][] = [
  ['freshness', freshness],
  ['volume', volume],
  ['null_rate', nullRate],
  ['duplicates', duplicates],
  ['currency_coverage', currencyCoverage],
  ['schema_drift', schemaDrift],
];

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
