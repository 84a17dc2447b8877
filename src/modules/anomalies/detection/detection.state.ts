import type { SqlExecutor } from '../../../platform/db/database.js';
import { addDays } from '../../../platform/calendar.js';
import { dayNumber } from './detection.days.js';
import { type Precedent, type Precedents, pushQuiet, type SeriesState } from './rule/rule.series.js';
import {
  dropSavedState,
  excludedDays,
  insertSavedState,
  type PrecedentRow,
  readCarriedState,
  readConfirmedDays,
  readPrecedents,
  readQuietRows,
  readSavedState,
  type SavedState,
  type SavedStateRow,
} from './detection.state.repo.js';

/**
 * What the stored days before an evaluated range left behind, per series, read back for the rule
 * (rule/rule.series.ts SeriesState): excluded days, the level-shift anchor and the run of fired
 * days from the few rows that carry them, the quiet days a sustained move adds up with, days
 * people confirmed, and the precedent deques. The last two of a series' state (the deques and the
 * quiet days) are what the evaluation of the day before saved, where it saved them
 * (anomaly_precedent_state): reading them back from the stored rows costs a scan per series.
 */

export const key = (project: string, channel: string, metric: string) => `${project}\u0000${channel}\u0000${metric}`;

/**
 * How many of an evaluation's last days have their deques saved: a run that re-evaluates a window
 * of up to this many days, ending where the previous run ended or later, starts from saved ones.
 */
export const SAVED_DAYS = 7;

/** The precedent deques and the quiet days as they stood after day d. */
export interface SavedDeques {
  d: number;
  precedents: Precedents;
  /** The z of the quiet days ending on d, oldest first (rule/rule.series.ts pushQuiet); empty: d was not quiet. */
  quiet: number[];
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

/**
 * What the stored days before `from` left behind for the series the pass evaluates (`series`;
 * others absent: nothing), the precedent deques and quiet days included.
 */
export async function readState(
  db: SqlExecutor,
  projectIds: string[],
  series: readonly (readonly [project: string, channel: string, metric: string])[],
  historyFrom: string,
  from: string,
  to: string,
  precedentDays: number,
  sustainedDays: number,
): Promise<Map<string, SeriesState>> {
  const states = new Map<string, SeriesState>();
  const stateOf = (k: string) => stateIn(states, k);
  // Saved only with precedents on (writeSavedState): without them, everything is read back.
  const saved = precedentDays > 0 ? await readSavedState(db, projectIds, addDays(from, -1), precedentDays) : new Map();
  for (const r of await excludedDays(db, projectIds, historyFrom, from))
    stateOf(key(r.project_id, r.channel, r.metric)).excluded.add(Number(r.d));
  const carried = await readCarriedState(db, projectIds, historyFrom, from);
  const last = dayNumber(from) - 1;
  for (const r of carried) {
    const s = stateOf(key(r.project_id, r.channel, r.metric));
    if (r.anchor !== null) s.anchor = Math.max(s.anchor ?? -Infinity, Number(r.anchor));
    const d = Number(r.d);
    // Only a run that reaches the day before the range can continue into it.
    if (r.run_days > 0 && d === last && r.direction) s.run = { start: d - r.run_days + 1, last: d, side: r.direction };
  }
  if (sustainedDays > 1) await readQuietDays(db, series, saved, historyFrom, from, sustainedDays, states);
  for (const r of await readConfirmedDays(db, projectIds, from, to, precedentDays)) {
    const s = stateOf(key(r.project_id, r.channel, r.metric));
    s.confirmed ??= new Set();
    s.confirmed.add(Number(r.d));
  }
  if (precedentDays > 0) await readPrecedentDeques(db, series, saved, from, precedentDays, states);
  return states;
}

/** The state of series `k` in `states`, added empty if it has none yet. */
function stateIn(states: Map<string, SeriesState>, k: string): SeriesState {
  let s = states.get(k);
  if (!s) {
    s = { excluded: new Set(), anchor: null, run: null };
    states.set(k, s);
  }
  return s;
}

/**
 * The quiet days just before the range, as the rule kept them: saved by the evaluation of the day
 * before for the same sustained_days, else read back from the stored rows (a day between that was
 * not quiet has no row there: the list restarts at the gap, as the rule's did). Reading them back
 * for every series was the one-day pass's largest read after the points on PostgreSQL (205 of
 * ~2,000 ms for 9,900 series, BENCHMARKS.md anomalies notes); its own statement, because folded
 * into CARRIED_STATE_SQL its condition kept that one off the partial index.
 */
async function readQuietDays(
  db: SqlExecutor,
  series: readonly (readonly [string, string, string])[],
  saved: Map<string, SavedState>,
  historyFrom: string,
  from: string,
  sustainedDays: number,
  states: Map<string, SeriesState>,
): Promise<void> {
  const stateOf = (k: string) => stateIn(states, k);
  const last = dayNumber(from) - 1;
  const unsaved: (readonly [string, string, string])[] = [];
  for (const x of series) {
    const k = key(x[0], x[1], x[2]);
    const quiet = saved.get(k)?.quiet;
    if (quiet && quiet.sustainedDays === sustainedDays) {
      const n = quiet.z.length;
      if (n) stateOf(k).quiet = quiet.z.map((z, i) => ({ d: last - n + 1 + i, z }));
    } else unsaved.push(x);
  }
  if (!unsaved.length) return;
  const rows = await readQuietRows(db, unsaved, historyFrom, from, addDays(from, -(sustainedDays - 1)));
  const read = new Set<SeriesState>();
  for (const r of rows) {
    const s = stateOf(key(r.project_id, r.channel, r.metric));
    s.quiet ??= [];
    read.add(s);
    pushQuiet(s.quiet, Number(r.d), Number(r.z), sustainedDays);
  }
  // Only quiet days that reach the day before the range add up with its first day.
  for (const s of read) if (s.quiet?.length && s.quiet[s.quiet.length - 1]!.d !== last) s.quiet = [];
}

/**
 * The precedent deques as of `from`. A series whose deques the evaluation of the day before saved
 * takes them as they are: they are what the read-back of the stored rows would give, which costs a
 * scan of a year of rows per series. Any other series, or one with days people confirmed (the
 * read-back leaves those out, the saved deques predate the verdict), is read back.
 */
async function readPrecedentDeques(
  db: SqlExecutor,
  series: readonly (readonly [string, string, string])[],
  saved: Map<string, SavedState>,
  from: string,
  days: number,
  states: Map<string, SeriesState>,
): Promise<void> {
  const stateOf = (k: string) => stateIn(states, k);
  const readBack = new Set<string>();
  for (const [p, c, m] of series) {
    const k = key(p, c, m);
    const deques = saved.get(k)?.precedents;
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
 * Saves the deques and quiet days the pass left after `to` and after each earlier day of its last
 * SAVED_DAYS, for an evaluation that starts the day after one of them. Saved state of a day on or
 * after `from` is dropped: this evaluation rewrote rows it covered (earlier ones stay valid: no
 * row before `from` changed). A series with confirmed days or a non-finite figure is not saved (it
 * is read back next time).
 */
export async function writeSavedState(
  tx: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  days: number,
  sustainedDays: number,
  series: readonly SeriesKey[],
): Promise<void> {
  await dropSavedState(tx, projectIds, from, to, SAVED_DAYS);
  if (days <= 0) return;
  const rows: SavedStateRow[] = [];
  const toD = dayNumber(to);
  const array = (flat: number[]) => (flat.every(Number.isFinite) ? `{${flat.map(String).join(',')}}` : null);
  for (const s of series) {
    if (!s.finite || s.state.confirmed?.size) continue;
    const final: SavedDeques = {
      d: toD,
      precedents: s.state.precedents ?? { spike: [], drop: [] },
      quiet: quietEndingOn(s.state.quiet, toD),
    };
    for (const saved of [...s.days, final]) {
      const since = saved.d + 1 - days;
      const deque = (side: 'spike' | 'drop') => {
        const flat: number[] = [];
        // Older days would be dropped by the next day's check anyway (largestSince).
        for (const p of saved.precedents[side]) if (p.d >= since) flat.push(p.d, p.size);
        return array(flat);
      };
      const spike = deque('spike');
      const drop = deque('drop');
      const quiet = array(saved.quiet);
      if (spike !== null && drop !== null && quiet !== null)
        rows.push([s.project_id, s.channel, s.metric, saved.d, spike, drop, quiet]);
    }
  }
  if (!rows.length) return;
  await insertSavedState(tx, rows, days, sustainedDays);
}

/**
 * The z of the rule's quiet days (SeriesState.quiet) if they end on day d, else none: what the
 * read-back of the stored rows would give an evaluation that starts on d + 1 (a series with no
 * point on d, or not quiet on it, starts that day with no quiet days).
 */
export function quietEndingOn(quiet: SeriesState['quiet'], d: number): number[] {
  return quiet?.length && quiet[quiet.length - 1]!.d === d ? quiet.map((q) => q.z) : [];
}

const toPrecedent = (r: PrecedentRow): Precedent => ({ d: Number(r.d), size: Number(r.size) });
