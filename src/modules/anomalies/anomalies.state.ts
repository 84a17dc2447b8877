import type { SqlExecutor } from '../../platform/db/database.js';
import { addDays } from '../money/calendar.js';
import { dayNumber } from './anomalies.days.js';
import { readConfirmedDays, readPrecedents, readPrecedentState, toPrecedent } from './anomalies.precedents.js';
import { type Precedents, pushQuiet, type SeriesState } from './anomalies.rule.js';
import { EXPECTED_DAYS, NOT_FALSE_POSITIVE } from './anomalies.triage.repo.js';

/**
 * What the stored days before an evaluated range left behind, per series, read back for the rule
 * (anomalies.rule.ts SeriesState): excluded days, the level-shift anchor and the run of fired
 * days from the few rows that carry them, the quiet days a sustained move adds up with, days
 * people confirmed, and the precedent deques.
 */

export const key = (project: string, channel: string, metric: string) => `${project}\u0000${channel}\u0000${metric}`;

/**
 * How many of an evaluation's last days have their deques saved: a run that re-evaluates a window
 * of up to this many days, ending where the previous run ended or later, starts from saved ones.
 */
export const SAVED_DAYS = 7;

/** The precedent deques as they stood after day d. */
export interface SavedDeques {
  d: number;
  precedents: Precedents;
}

/** A series of a pass: its key parts and the state the rule left in it. */
export interface SeriesKey {
  project_id: string;
  channel: string;
  metric: string;
  state: SeriesState;
  /** Every evaluated row had a finite value and expected value (the saved deques need it). */
  finite: boolean;
  /** The deques after each of the range's last SAVED_DAYS days but its last, where it has a point. */
  days: SavedDeques[];
}

/*
 * Two statements readState issues, named so that test/anomalies/query-plans.test.ts explains the
 * very text the evaluator runs: each must stay on an index of anomalies_daily (a one-day
 * evaluation reads a few stored rows per series, not the history).
 */

/** excludedDays: $1 project ids, $2 first day of the history, $3 first evaluated day. */
export const EXCLUDED_DAYS_SQL = `SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d FROM anomalies_daily a
     WHERE a.project_id = ANY($1::text[]) AND a.date >= $2::date AND a.date < $3::date AND a.excluded
       AND ${NOT_FALSE_POSITIVE}
     UNION
     ${EXPECTED_DAYS}`;

/**
 * The rows that carry a level-shift anchor or a run of fired days (same parameters): its condition
 * implies the predicate of the partial index anomalies_daily_state (migration 0031), which keeps it
 * off the rest of the history.
 */
export const CARRIED_STATE_SQL = `SELECT project_id, channel, metric, (date - DATE '2000-01-03') AS d, (anchor_date - DATE '2000-01-03') AS anchor,
       run_days, direction
     FROM anomalies_daily
     WHERE project_id = ANY($1::text[]) AND date >= $2::date AND date < $3::date
       AND (anchor_date IS NOT NULL OR run_days > 0)
     ORDER BY date`;

/**
 * The quiet days just before the range, of the series the pass evaluates ($1–$3: project, channel
 * and metric of each; $4 first day of the history, $5 first evaluated day, $6 the first quiet day
 * wanted): per series through the primary key, a few entries each, instead of a date condition
 * the key could only check on every stored day of the projects.
 */
export const QUIET_DAYS_SQL = `SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d, a.z
       FROM unnest($1::text[], $2::text[], $3::text[]) AS s(p, c, m)
       JOIN anomalies_daily a ON a.project_id = s.p AND a.channel = s.c AND a.metric = s.m
         AND a.date >= $4::date AND a.date >= $6::date AND a.date < $5::date
       WHERE a.status = 'ok' AND a.z <> 0
       ORDER BY a.date`;

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
  return db.query(EXCLUDED_DAYS_SQL, [projectIds, historyFrom, from]);
}

/**
 * What the stored days before `from` left behind, per series (absent: nothing), except the
 * precedent deques: fillPrecedents adds those once the pass knows its series.
 */
export async function readState(
  db: SqlExecutor,
  projectIds: string[],
  /** The series the pass evaluates (the quiet days are read for those only). */
  series: readonly (readonly [project: string, channel: string, metric: string])[],
  historyFrom: string,
  from: string,
  to: string,
  precedentDays: number,
  sustainedDays: number,
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
  }>(CARRIED_STATE_SQL, [projectIds, historyFrom, from]);
  const last = dayNumber(from) - 1;
  for (const r of carried) {
    const s = stateOf(r.project_id, r.channel, r.metric);
    if (r.anchor !== null) s.anchor = Math.max(s.anchor ?? -Infinity, Number(r.anchor));
    const d = Number(r.d);
    // Only a run that reaches the day before the range can continue into it.
    if (r.run_days > 0 && d === last && r.direction) s.run = { start: d - r.run_days + 1, last: d, side: r.direction };
  }
  // The quiet days, as the rule kept them (a day between that was not quiet has no row here: the
  // list restarts at the gap, as the rule's did). A query of its own: folded into the one above, its
  // condition kept that one off the partial index (anomalies_daily_state) and made a day's
  // evaluation read every stored row of the history (the one-day pass's read phase, 447 → 857 ms
  // for 30 projects; test/anomalies/query-plans.test.ts now fails on it).
  if (sustainedDays > 1 && series.length) {
    const quiet = await db.query<{ project_id: string; channel: string; metric: string; d: number; z: number }>(
      QUIET_DAYS_SQL,
      [
        series.map((x) => x[0]),
        series.map((x) => x[1]),
        series.map((x) => x[2]),
        historyFrom,
        from,
        addDays(from, -(sustainedDays - 1)),
      ],
    );
    for (const r of quiet) {
      const s = stateOf(r.project_id, r.channel, r.metric);
      s.quiet ??= [];
      pushQuiet(s.quiet, Number(r.d), Number(r.z), sustainedDays);
    }
  }
  // Only quiet days that reach the day before the range add up with its first day.
  for (const s of states.values()) if (s.quiet?.length && s.quiet[s.quiet.length - 1]!.d !== last) s.quiet = [];
  for (const r of await readConfirmedDays(db, projectIds, from, to, precedentDays)) {
    const s = stateOf(r.project_id, r.channel, r.metric);
    s.confirmed ??= new Set();
    s.confirmed.add(Number(r.d));
  }
  return states;
}

/**
 * The precedent deques of the pass's series (`series`: their keys) as of `from`. A series whose
 * deques an evaluation saved as they stood the day before (anomaly_precedent_state) takes them as
 * they are: they are what the read-back of the stored rows would give, which costs a scan of a
 * year of rows per series. Any other series, or one with days people confirmed (the read-back
 * leaves those out, the saved deques predate the verdict), is read back.
 */
export async function fillPrecedents(
  db: SqlExecutor,
  projectIds: string[],
  series: Iterable<[project: string, channel: string, metric: string]>,
  from: string,
  days: number,
  states: Map<string, SeriesState>,
): Promise<void> {
  if (days <= 0) return;
  const saved = await readPrecedentState(db, projectIds, addDays(from, -1), days);
  const readBack = new Set<string>();
  const stateOf = (k: string) => {
    let s = states.get(k);
    if (!s) {
      s = { excluded: new Set(), anchor: null, run: null };
      states.set(k, s);
    }
    return s;
  };
  for (const [p, c, m] of series) {
    const k = key(p, c, m);
    const deques = saved.get(k);
    if (deques && !states.get(k)?.confirmed?.size) stateOf(k).precedents = deques;
    else readBack.add(p);
  }
  if (!readBack.size) return;
  const taken = new Set<string>();
  for (const r of await readPrecedents(db, [...readBack], from, days)) {
    const k = key(r.project_id, r.channel, r.metric);
    const s = stateOf(k);
    if (s.precedents && !taken.has(k)) continue;
    taken.add(k);
    s.precedents ??= { spike: [], drop: [] };
    s.precedents[r.side].push(toPrecedent(r));
  }
}

/**
 * Saves the deques the pass left after `to` and after each earlier day of its last SAVED_DAYS,
 * for an evaluation that starts the day after one of them. Saved deques of a day on or after
 * `from` are dropped: this evaluation rewrote rows they covered (earlier ones stay valid: no row
 * before `from` changed). A series with confirmed days or a non-finite figure is not saved (it is
 * read back next time).
 */
export async function writePrecedentState(
  tx: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  days: number,
  series: readonly SeriesKey[],
): Promise<void> {
  await tx.query(
    `DELETE FROM anomaly_precedent_state
     WHERE project_id = ANY($1::text[]) AND (as_of >= $2::date OR as_of <= $3::date - $4::int)`,
    [projectIds, from, to, SAVED_DAYS],
  );
  if (days <= 0) return;
  const rows: [string, string, string, number, string, string][] = [];
  for (const s of series) {
    if (!s.finite || s.state.confirmed?.size) continue;
    const final: SavedDeques = { d: dayNumber(to), precedents: s.state.precedents ?? { spike: [], drop: [] } };
    for (const saved of [...s.days, final]) {
      const since = saved.d + 1 - days;
      const literal = (side: 'spike' | 'drop') => {
        const flat: number[] = [];
        // Older days would be dropped by the next day's check anyway (largestSince).
        for (const p of saved.precedents[side]) if (p.d >= since) flat.push(p.d, p.size);
        return flat.every(Number.isFinite) ? `{${flat.map(String).join(',')}}` : null;
      };
      const spike = literal('spike');
      const drop = literal('drop');
      if (spike !== null && drop !== null) rows.push([s.project_id, s.channel, s.metric, saved.d, spike, drop]);
    }
  }
  if (!rows.length) return;
  await tx.query(
    `INSERT INTO anomaly_precedent_state (project_id, channel, metric, as_of, precedent_days, spike_deque, drop_deque)
     SELECT p, c, m, DATE '2000-01-03' + a, $5::int, s::float8[], d::float8[]
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $6::text[], $7::text[]) AS t(p, c, m, a, s, d)
     -- Saved meanwhile by an evaluation of the same project that committed first: replaced.
     ON CONFLICT (project_id, channel, metric, as_of) DO UPDATE SET precedent_days = EXCLUDED.precedent_days,
       spike_deque = EXCLUDED.spike_deque, drop_deque = EXCLUDED.drop_deque`,
    [
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      rows.map((r) => r[2]),
      rows.map((r) => r[3]),
      days,
      rows.map((r) => r[4]),
      rows.map((r) => r[5]),
    ],
  );
}
