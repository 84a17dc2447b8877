import type { CopyIn, SqlExecutor } from '../../platform/db/database.js';
import type { EvaluatedPoint } from './anomalies.rule.js';
import { METRICS, type EffectiveSettings, type Metric } from './anomalies.schemas.js';

/**
 * Writing evaluated rows into anomalies_daily. On PostgreSQL a COPY per pass, fed series by series
 * while the next ones are computed: the server inserts on one core while the rule runs on the
 * other. Elsewhere (PGlite) batches of column arrays, one INSERT … SELECT FROM unnest each.
 * Both store the same values: numbers travel as their shortest round-trip text either way (pg
 * serializes array elements with String(), as the COPY text here does).
 */

export interface SeriesRows {
  project_id: string;
  channel: string;
  metric: Metric;
  rows: EvaluatedPoint[];
}

export interface RowSink {
  /** Takes a series' rows; a promise means: wait before handing over more. */
  add(series: SeriesRows): Promise<void> | undefined;
  /** Writes what is pending; the executor is free for other statements afterwards. */
  end(): Promise<{ rows: number; fired: number }>;
}

export function openSink(tx: SqlExecutor, s: EffectiveSettings): RowSink {
  return tx.copyIn ? new CopySink(tx.copyIn(COPY_SQL), s) : new UnnestSink(tx, s);
}

const COLUMNS = `project_id, date, metric, channel, value, baseline_mean, baseline_stddev, training_size, window_from,
  window_to, seasonality, z, relative_change, threshold, min_relative_change, min_abs_change, watch, direction, fired,
  score, severity, kind, status, excluded, anchor_date, run_days, model, precedent, explained_by_channel,
  explained_by_metric`;

const COPY_SQL = `COPY anomalies_daily (${COLUMNS}) FROM STDIN`;

const EPOCH = Date.parse('2000-01-03T00:00:00Z');

/** COPY text: backslash, tab, newline and carriage return escaped; \N is null. */
const text = (t: string | null | undefined) =>
  t == null ? '\\N' : /[\\\t\n\r]/.test(t) ? t.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : t;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const num = (x: number | null) => (x === null ? '\\N' : String(x));

class CopySink implements RowSink {
  private rows = 0;
  private fired = 0;
  /** Per metric: the settings columns every row of that metric repeats, as COPY text. */
  private readonly perMetric: Map<Metric, string>;
  /** Day number → 'YYYY-MM-DD' (three dates a row; the same few hundred days throughout). */
  private readonly dates = new Map<number, string>();

  constructor(
    private readonly copy: CopyIn,
    private readonly s: EffectiveSettings,
  ) {
    this.perMetric = new Map(
      METRICS.map((m) => {
        const r = s.metrics.find((x) => x.metric === m)!;
        return [m, [num(r.threshold), num(r.min_relative_change), num(r.min_abs_change), text(r.direction)].join('\t')];
      }),
    );
  }

  private date(d: number): string {
    let v = this.dates.get(d);
    if (v === undefined) {
      v = new Date(EPOCH + d * 86_400_000).toISOString().slice(0, 10);
      this.dates.set(d, v);
    }
    return v;
  }

  add(series: SeriesRows): Promise<void> | undefined {
    if (!series.rows.length) return undefined;
    const head = `${text(series.project_id)}\t`;
    const mid = `\t${text(series.metric)}\t${text(series.channel)}\t`;
    const settings = this.perMetric.get(series.metric)!;
    const seasonality = text(this.s.seasonality);
    let out = '';
    for (const r of series.rows) {
      out += `${head}${this.date(r.d)}${mid}${num(r.value)}\t${num(r.expected)}\t${num(r.scale)}\t${r.n}\t${this.date(r.windowFrom)}\t${this.date(r.windowTo)}\t${seasonality}\t${num(r.z)}\t${num(r.rel)}\t${settings}\t${text(r.direction)}\t${r.fired ? 't' : 'f'}\t${num(r.score)}\t${text(r.severity)}\t${text(r.kind)}\t${r.status}\t${r.excluded ? 't' : 'f'}\t${r.anchor === null ? '\\N' : this.date(r.anchor)}\t${r.runDays}\t${text(r.model)}\t${num(r.precedent)}\t${text(r.explainedBy?.channel)}\t${text(r.explainedBy?.metric)}\n`;
      this.rows += 1;
      if (r.fired) this.fired += 1;
    }
    return this.copy.write(Buffer.from(out));
  }

  async end() {
    await this.copy.end();
    return { rows: this.rows, fired: this.fired };
  }
}

const BATCH_ROWS = 20_000;

const INSERT_SQL = `INSERT INTO anomalies_daily (${COLUMNS})
  SELECT p, DATE '2000-01-03' + d, m, c, v, e, sc, n, DATE '2000-01-03' + wf, DATE '2000-01-03' + wt, $20, z, rel,
    ($21::float8[])[mi], ($22::float8[])[mi], ($23::float8[])[mi], ($24::text[])[mi], dir, f, score, sev, k, st, ex,
    DATE '2000-01-03' + an, rd, mo, pr, xc, xm
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::int[],
    $9::int[], $10::int[], $11::float8[], $12::float8[], $13::text[], $14::bool[], $15::float8[], $16::text[],
    $17::text[], $18::text[], $19::bool[], $25::int[], $26::int[], $27::text[], $28::int[], $29::float8[],
    $30::text[], $31::text[])
    AS t(p, d, m, c, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm)`;

/** Batches of column arrays: one statement per BATCH_ROWS rows (the store without COPY). */
class UnnestSink implements RowSink {
  private cols = UnnestSink.columns();
  private pending = 0;
  private rows = 0;
  private fired = 0;
  private readonly perMetric;

  constructor(
    private readonly tx: SqlExecutor,
    private readonly s: EffectiveSettings,
  ) {
    this.perMetric = METRICS.map((m) => s.metrics.find((r) => r.metric === m)!);
  }

  private static columns(): unknown[][] {
    return Array.from({ length: 26 }, () => []);
  }

  add(series: SeriesRows): Promise<void> | undefined {
    const mi = METRICS.indexOf(series.metric) + 1;
    const c = this.cols;
    for (const row of series.rows) {
      const values = [
        series.project_id,
        row.d,
        series.metric,
        series.channel,
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
      this.pending += 1;
      this.rows += 1;
      if (row.fired) this.fired += 1;
    }
    return this.pending >= BATCH_ROWS ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (!this.pending) return;
    const [p, d, m, ch, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm] =
      this.cols;
    this.cols = UnnestSink.columns();
    this.pending = 0;
    const pm = this.perMetric;
    await this.tx.query(INSERT_SQL, [
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
      this.s.seasonality,
      pm.map((r) => r.threshold),
      pm.map((r) => r.min_relative_change),
      pm.map((r) => r.min_abs_change),
      pm.map((r) => r.direction),
      an,
      rd,
      mo,
      mi,
      pr,
      xc,
      xm,
    ]);
  }

  async end() {
    await this.flush();
    return { rows: this.rows, fired: this.fired };
  }
}

/** Days before the range a level shift took back into the baseline: no longer excluded. */
export async function readmit(
  tx: SqlExecutor,
  back: readonly (readonly [project: string, channel: string, metric: string, d: number])[],
): Promise<void> {
  if (!back.length) return;
  await tx.query(
    `UPDATE anomalies_daily a SET excluded = false
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(p, c, m, d)
     WHERE a.project_id = t.p AND a.channel = t.c AND a.metric = t.m AND a.date = DATE '2000-01-03' + t.d`,
    [back.map((b) => b[0]), back.map((b) => b[1]), back.map((b) => b[2]), back.map((b) => b[3])],
  );
}
