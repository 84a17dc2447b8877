import type { SqlExecutor } from '../../../platform/db/database.js';
import { addDays } from '../../money/calendar.js';
import type { Precedent, Precedents } from './detection.rule.js';
import { CONFIRMED_DAYS, NOT_CONFIRMED } from '../triage/triage.repo.js';

/**
 * What the precedent check (anomalies.rule.ts) needs of the days before an evaluated range, read
 * from the stored rows: per series and side, the deviations |value − expected| of the precedent
 * window that no later day before the range equals or beats (the rule's deque as the sequential
 * pass would have left it, so a one-day evaluation gives the rows a whole re-evaluation gives),
 * and the days people confirmed as incidents (never a precedent, before or inside the range).
 * Only days judged on a full baseline count, as in the rule.
 */

export interface PrecedentRow {
  project_id: string;
  channel: string;
  metric: string;
  side: 'spike' | 'drop';
  d: number;
  size: number;
}

export async function readPrecedents(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  days: number,
): Promise<PrecedentRow[]> {
  if (days <= 0) return [];
  return db.query<PrecedentRow>(
    `WITH dev AS (
       SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d,
         CASE WHEN a.value > a.baseline_mean THEN 'spike' ELSE 'drop' END AS side, abs(a.value - a.baseline_mean) AS size
       FROM anomalies_daily a
       WHERE a.project_id = ANY($1::text[]) AND a.date >= $2::date - $3::int AND a.date < $2::date
         AND a.baseline_mean IS NOT NULL AND a.value <> a.baseline_mean
         AND a.status IN ('ok', 'fired', 'precedented', 'explained') AND ${NOT_CONFIRMED}
     ),
     ranked AS (
       SELECT *, max(size) OVER (PARTITION BY project_id, channel, metric, side ORDER BY d DESC
         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later
       FROM dev
     )
     SELECT project_id, channel, metric, side, d, size FROM ranked
     WHERE later IS NULL OR size > later
     ORDER BY project_id, channel, metric, side, d`,
    [projectIds, from, days],
  );
}

/** Days of confirmed anomalies in [from − days, to], per series. */
export async function readConfirmedDays(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  days: number,
): Promise<{ project_id: string; channel: string; metric: string; d: number }[]> {
  if (days <= 0) return [];
  return db.query(CONFIRMED_DAYS, [projectIds, addDays(from, -days), to]);
}

export const toPrecedent = (r: PrecedentRow): Precedent => ({ d: Number(r.d), size: Number(r.size) });

/** What an evaluation saved of a series as of a day (anomalies.state.ts, writeSavedState). */
export interface SavedState {
  precedents: Precedents;
  /** The z of the quiet days ending that day, oldest first, for `sustainedDays`; null: not saved. */
  quiet: { sustainedDays: number; z: number[] } | null;
}

/**
 * The state an evaluation saved for the day after its last (anomalies.state.ts), per series key,
 * for the same precedent window. Deques are stored flat, [d, size, d, size, …] oldest first, per side.
 */
export async function readSavedState(
  db: SqlExecutor,
  projectIds: string[],
  asOf: string,
  days: number,
): Promise<Map<string, SavedState>> {
  const rows = await db.query<{
    project_id: string;
    channel: string;
    metric: string;
    spike_deque: number[];
    drop_deque: number[];
    sustained_days: number | null;
    quiet_z: number[] | null;
  }>(
    `SELECT project_id, channel, metric, spike_deque, drop_deque, sustained_days, quiet_z FROM anomaly_precedent_state
     WHERE project_id = ANY($1::text[]) AND as_of = $2::date AND precedent_days = $3::int`,
    [projectIds, asOf, days],
  );
  const unflat = (flat: number[]): Precedent[] => {
    const out: Precedent[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ d: Number(flat[i]), size: Number(flat[i + 1]) });
    return out;
  };
  return new Map(
    rows.map((r) => [
      `${r.project_id}\u0000${r.channel}\u0000${r.metric}`,
      {
        precedents: { spike: unflat(r.spike_deque), drop: unflat(r.drop_deque) },
        quiet:
          r.quiet_z === null || r.sustained_days === null
            ? null
            : { sustainedDays: Number(r.sustained_days), z: r.quiet_z.map(Number) },
      },
    ]),
  );
}
