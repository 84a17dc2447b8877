import type { SqlExecutor } from '../../platform/db/database.js';
import { rebuildEpisodes } from './anomalies.episodes.js';
import { evaluateSeries, frameOf, type EvaluatedPoint, type RuleParams, type SeriesState } from './anomalies.rule.js';
import { METRICS, TOTAL_CHANNEL, type EffectiveSettings, type Metric } from './anomalies.schemas.js';
import { explainAcrossSeries, RATIO_PARTS } from './anomalies.explained.js';
import { readConfirmedDays, readPrecedents, toPrecedent } from './anomalies.precedents.js';
import { EXPECTED_DAYS, NOT_FALSE_POSITIVE } from './anomalies.triage.repo.js';

/**
 * The evaluation's I/O around the rule (anomalies.rule.ts): points are read in bulk (kpis_daily
 * plus the project total, ratios recomputed from the summed parts), what earlier days left behind
 * (excluded days, level-shift anchors, runs of fired days) is read back from the few stored rows
 * that carry it, each series runs through the rule in memory, and the rows are written back in
 * batches of column arrays (one statement per batch on either store).
 */

const EPOCH = Date.parse('2000-01-03T00:00:00Z');
/** Day number: days since Monday 2000-01-03, so d mod 7 is the weekday (0 = Monday). */
export const dayNumber = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - EPOCH) / 86_400_000);
export const dateOf = (d: number) => new Date(EPOCH + d * 86_400_000).toISOString().slice(0, 10);

/** How many days of history before `from` the evaluation of `from` needs. */
export function lookbackDays(s: EffectiveSettings): number {
  return frameOf(s).lookback;
}

export function ruleOf(s: EffectiveSettings, metric: Metric): RuleParams {
  const m = s.metrics.find((r) => r.metric === metric)!;
  return {
    baseline: s.baseline,
    seasonality: s.seasonality,
    window_days: s.window_days,
    seasonal_weeks: s.seasonal_weeks,
    exclude_anomalies: s.exclude_anomalies,
    level_shifts: s.level_shifts,
    level_shift_days: s.level_shift_days,
    precedent_days: s.precedent_days,
    threshold: m.threshold,
    direction: m.direction,
    min_relative_change: m.min_relative_change,
    min_abs_change: m.min_abs_change,
    min_training_days: m.min_training_days,
    min_volume: m.min_volume,
  };
}

type SourceRow = { project_id: string; channel: string; d: number } & Record<Metric, number | null>;

const METRIC_COLUMNS = METRICS.map((m) => `${m}::float8 AS ${m}`).join(', ');

export async function readPoints(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  to: string,
  channel: string | null,
): Promise<SourceRow[]> {
  return db.query<SourceRow>(
    `WITH base AS (
       SELECT project_id, date, channel, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr
       FROM kpis_daily WHERE project_id = ANY($1::text[]) AND date BETWEEN $2::date AND $3::date
     ),
     src AS (
       SELECT * FROM base
       UNION ALL
       SELECT project_id, date, '${TOTAL_CHANNEL}', sum(spend), sum(revenue), sum(conversions), sum(clicks), sum(impressions),
         sum(revenue) / NULLIF(sum(spend), 0), sum(spend) / NULLIF(sum(conversions), 0),
         sum(clicks)::numeric / NULLIF(sum(impressions), 0), sum(conversions) / NULLIF(sum(clicks), 0)
       FROM base GROUP BY project_id, date
     )
     SELECT project_id, channel, (date - DATE '2000-01-03') AS d, ${METRIC_COLUMNS}
     FROM src WHERE $4::text IS NULL OR channel = $4
     ORDER BY project_id COLLATE "C", channel COLLATE "C", date`,
    [projectIds, historyFrom, to, channel],
  );
}

const key = (project: string, channel: string, metric: string) => `${project}\u0000${channel}\u0000${metric}`;

/**
 * The single seam for days left out of baselines before the evaluated range: days stored as
 * excluded (fired, low volume) unless triaged `false_positive`, and days triaged `expected`
 * (anomalies.triage.repo.ts says why each).
 */
export async function excludedDays(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  from: string,
): Promise<{ project_id: string; channel: string; metric: string; d: number }[]> {
  return db.query(
    `SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d FROM anomalies_daily a
     WHERE a.project_id = ANY($1::text[]) AND a.date >= $2::date AND a.date < $3::date AND a.excluded
       AND ${NOT_FALSE_POSITIVE}
     UNION
     ${EXPECTED_DAYS}`,
    [projectIds, historyFrom, from],
  );
}

/** What the stored days before `from` left behind, per series (absent: nothing). */
export async function readState(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  from: string,
  to: string,
  precedentDays: number,
): Promise<Map<string, SeriesState>> {
  const states = new Map<string, SeriesState>();
  const stateOf = (p: string, c: string, m: string) => {
    const k = key(p, c, m);
    let s = states.get(k);
    if (!s) {
      s = { excluded: new Set(), anchor: null, run: null };
      states.set(k, s);
    }
    return s;
  };
  for (const r of await excludedDays(db, projectIds, historyFrom, from))
    stateOf(r.project_id, r.channel, r.metric).excluded.add(Number(r.d));
  const carried = await db.query<{
    project_id: string;
    channel: string;
    metric: string;
    d: number;
    anchor: number | null;
    run_days: number;
    direction: 'spike' | 'drop' | null;
  }>(
    `SELECT project_id, channel, metric, (date - DATE '2000-01-03') AS d, (anchor_date - DATE '2000-01-03') AS anchor,
       run_days, direction
     FROM anomalies_daily
     WHERE project_id = ANY($1::text[]) AND date >= $2::date AND date < $3::date
       AND (anchor_date IS NOT NULL OR run_days > 0)
     ORDER BY date`,
    [projectIds, historyFrom, from],
  );
  const last = dayNumber(from) - 1;
  for (const r of carried) {
    const s = stateOf(r.project_id, r.channel, r.metric);
    if (r.anchor !== null) s.anchor = Math.max(s.anchor ?? -Infinity, Number(r.anchor));
    const d = Number(r.d);
    // Only a run that reaches the day before the range can continue into it.
    if (r.run_days > 0 && d === last && r.direction) s.run = { start: d - r.run_days + 1, last: d, side: r.direction };
  }
  for (const r of await readPrecedents(db, projectIds, from, precedentDays)) {
    const s = stateOf(r.project_id, r.channel, r.metric);
    s.precedents ??= { spike: [], drop: [] };
    s.precedents[r.side].push(toPrecedent(r));
  }
  for (const r of await readConfirmedDays(db, projectIds, from, to, precedentDays)) {
    const s = stateOf(r.project_id, r.channel, r.metric);
    s.confirmed ??= new Set();
    s.confirmed.add(Number(r.d));
  }
  return states;
}

export interface SeriesResult {
  project_id: string;
  channel: string;
  metric: Metric;
  rows: EvaluatedPoint[];
  readmitted: number[];
}

/** Runs every enabled series of the points through the rule (nothing written). */
export async function computeSeries(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  historyFrom: string,
  s: EffectiveSettings,
  only?: { channel: string; metric: Metric },
): Promise<SeriesResult[]> {
  const states = await readState(db, projectIds, historyFrom, from, to, s.precedent_days);
  // One series also needs the series that can explain it (anomalies.explained.ts): a ratio's
  // parts, and every channel of the metric for the total.
  const explainers = only && s.explain_related ? [only.metric, ...(RATIO_PARTS[only.metric] ?? [])] : [];
  const source = await readPoints(
    db,
    projectIds,
    historyFrom,
    to,
    only && !(s.explain_related && only.channel === TOTAL_CHANNEL) ? only.channel : null,
  );
  const enabled = (m: Metric) => s.metrics.find((r) => r.metric === m)!.enabled;
  const metrics = METRICS.filter((m) =>
    only ? m === only.metric || (explainers.includes(m) && enabled(m)) : enabled(m),
  );
  const rules = new Map(metrics.map((m) => [m, ruleOf(s, m)]));
  const fromD = dayNumber(from);
  const out: SeriesResult[] = [];
  let i = 0;
  while (i < source.length) {
    const first = source[i]!;
    let j = i;
    while (j < source.length && source[j]!.project_id === first.project_id && source[j]!.channel === first.channel)
      j += 1;
    const rows = source.slice(i, j);
    for (const metric of metrics) {
      const rule = rules.get(metric)!;
      const volumeMetric = s.metrics.find((r) => r.metric === metric)!.volume_metric;
      const points = rows
        .filter((r) => r[metric] !== null)
        .map((r) => ({
          d: Number(r.d),
          value: r[metric]!,
          volume: volumeMetric ? (r[volumeMetric] ?? 0) : null,
        }));
      const state = states.get(key(first.project_id, first.channel, metric)) ?? {
        excluded: new Set<number>(),
        anchor: null,
        run: null,
      };
      const r = evaluateSeries(points, fromD, rule, state);
      if (r.rows.length || r.readmitted.length)
        out.push({ project_id: first.project_id, channel: first.channel, metric, ...r });
    }
    i = j;
  }
  if (s.explain_related)
    for (const project of projectIds) explainAcrossSeries(out.filter((r) => r.project_id === project));
  return only ? out.filter((r) => r.channel === only.channel && r.metric === only.metric) : out;
}

const BATCH_ROWS = 20_000;

const INSERT_SQL = `INSERT INTO anomalies_daily (project_id, date, metric, channel, value, baseline_mean, baseline_stddev,
    training_size, window_from, window_to, seasonality, z, relative_change, threshold, min_relative_change, min_abs_change,
    watch, direction, fired, score, severity, kind, status, excluded, anchor_date, run_days, model, precedent,
    explained_by_channel, explained_by_metric)
  SELECT p, DATE '2000-01-03' + d, m, c, v, e, sc, n, DATE '2000-01-03' + wf, DATE '2000-01-03' + wt, $20, z, rel,
    ($21::float8[])[mi], ($22::float8[])[mi], ($23::float8[])[mi], ($24::text[])[mi], dir, f, score, sev, k, st, ex,
    DATE '2000-01-03' + an, rd, mo, pr, xc, xm
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::int[],
    $9::int[], $10::int[], $11::float8[], $12::float8[], $13::text[], $14::bool[], $15::float8[], $16::text[],
    $17::text[], $18::text[], $19::bool[], $25::int[], $26::int[], $27::text[], $28::int[], $29::float8[],
    $30::text[], $31::text[])
    AS t(p, d, m, c, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm)`;

/** Writes the evaluated rows (the caller deleted the range first) and readmits level-shift days. */
export async function writeSeries(
  tx: SqlExecutor,
  results: SeriesResult[],
  s: EffectiveSettings,
): Promise<{ rows: number; fired: number }> {
  const perMetric = METRICS.map((m) => s.metrics.find((r) => r.metric === m)!);
  const cols = (): unknown[][] => Array.from({ length: 26 }, () => []);
  let c = cols();
  let pending = 0;
  let rows = 0;
  let fired = 0;
  const flush = async () => {
    if (!pending) return;
    const [p, d, m, ch, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm] = c;
    await tx.query(INSERT_SQL, [
      p,
      d,
      m,
      ch,
      v,
      e,
      sc,
      n,
      wf,
      wt,
      z,
      rel,
      dir,
      f,
      score,
      sev,
      k,
      st,
      ex,
      s.seasonality,
      perMetric.map((r) => r.threshold),
      perMetric.map((r) => r.min_relative_change),
      perMetric.map((r) => r.min_abs_change),
      perMetric.map((r) => r.direction),
      an,
      rd,
      mo,
      mi,
      pr,
      xc,
      xm,
    ]);
    c = cols();
    pending = 0;
  };
  for (const r of results) {
    const mi = METRICS.indexOf(r.metric) + 1;
    for (const row of r.rows) {
      const values = [
        r.project_id,
        row.d,
        r.metric,
        r.channel,
        row.value,
        row.expected,
        row.scale,
        row.n,
        row.windowFrom,
        row.windowTo,
        row.z,
        row.rel,
        row.direction,
        row.fired,
        row.score,
        row.severity,
        row.kind,
        row.status,
        row.excluded,
        row.anchor,
        row.runDays,
        row.model,
        mi,
        row.precedent,
        row.explainedBy?.channel ?? null,
        row.explainedBy?.metric ?? null,
      ];
      for (let k = 0; k < values.length; k += 1) c[k]!.push(values[k]);
      pending += 1;
      rows += 1;
      if (row.fired) fired += 1;
      if (pending >= BATCH_ROWS) await flush();
    }
  }
  await flush();
  const back = results.flatMap((r) => r.readmitted.map((d) => [r.project_id, r.channel, r.metric, d] as const));
  if (back.length)
    await tx.query(
      `UPDATE anomalies_daily a SET excluded = false
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(p, c, m, d)
       WHERE a.project_id = t.p AND a.channel = t.c AND a.metric = t.m AND a.date = DATE '2000-01-03' + t.d`,
      [back.map((b) => b[0]), back.map((b) => b[1]), back.map((b) => b[2]), back.map((b) => b[3])],
    );
  return { rows, fired };
}

/** Projects per read: bounds the memory of a full re-evaluation of many projects. */
const PROJECTS_PER_PASS = 10;

/**
 * Replaces the rows of [from, to] with a fresh evaluation, for one project or for several that
 * share the same settings, then rebuilds the anomalies (episodes) those days touch.
 */
export async function evaluate(
  tx: SqlExecutor,
  project: string | string[],
  from: string,
  to: string,
  historyFrom: string,
  s: EffectiveSettings,
): Promise<{ rows: number; fired: number }> {
  const projectIds = Array.isArray(project) ? project : [project];
  await tx.query('DELETE FROM anomalies_daily WHERE project_id = ANY($1::text[]) AND date BETWEEN $2 AND $3', [
    projectIds,
    from,
    to,
  ]);
  let rows = 0;
  let fired = 0;
  for (let i = 0; i < projectIds.length; i += PROJECTS_PER_PASS) {
    const chunk = projectIds.slice(i, i + PROJECTS_PER_PASS);
    const results = await computeSeries(tx, chunk, from, to, historyFrom, s);
    const w = await writeSeries(tx, results, s);
    rows += w.rows;
    fired += w.fired;
  }
  await rebuildEpisodes(tx, projectIds, from, to);
  return { rows, fired };
}
