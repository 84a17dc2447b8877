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
  explained_by_metric, explained_by_event`;

const COPY_SQL = `COPY anomalies_daily (${COLUMNS}) FROM STDIN (FORMAT binary)`;

/** PGCOPY signature, flags and header extension length: the start of a binary COPY. */
const COPY_HEADER = Buffer.from([...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), ...[0, 0, 0, 0], ...[0, 0, 0, 0]]);
/** Dates travel as days since 2000-01-01; day numbers count from Monday 2000-01-03. */
const PG_DATE_OFFSET = 2;

/**
 * Binary COPY (no number formatting on our side, no parsing on the server's). A float is stored
 * as the text path would have stored it: String(x) round-trips every double except −0, which it
 * writes as 0, so −0 goes out as 0 here too.
 */
class CopySink implements RowSink {
  private rows = 0;
  private fired = 0;
  private buf = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  private started = false;
  private readonly perMetric: Map<Metric, { threshold: number; rel: number; abs: number; watch: Buffer }>;
  private readonly strings = new Map<string, Buffer>();
  private readonly seasonality: Buffer;

  constructor(
    private readonly copy: CopyIn,
    s: EffectiveSettings,
  ) {
    this.perMetric = new Map(
      METRICS.map((m) => {
        const r = s.metrics.find((x) => x.metric === m)!;
        const watch = this.str(r.direction);
        return [m, { threshold: r.threshold, rel: r.min_relative_change, abs: r.min_abs_change, watch }];
      }),
    );
    this.seasonality = this.str(s.seasonality);
  }

  /** UTF-8 of the few distinct strings (statuses, models, names), encoded once. */
  private str(t: string): Buffer {
    let b = this.strings.get(t);
    if (!b) {
      b = Buffer.from(t, 'utf8');
      this.strings.set(t, b);
    }
    return b;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  private float(x: number | null): void {
    if (x === null) {
      this.none();
      return;
    }
    this.buf.writeInt32BE(8, this.at);
    this.buf.writeDoubleBE(x === 0 ? 0 : x, this.at + 4);
    this.at += 12;
  }

  private int(x: number): void {
    this.buf.writeInt32BE(4, this.at);
    this.buf.writeInt32BE(x, this.at + 4);
    this.at += 8;
  }

  private date(d: number | null): void {
    if (d === null) this.none();
    else this.int(d + PG_DATE_OFFSET);
  }

  private bool(x: boolean): void {
    this.buf.writeInt32BE(1, this.at);
    this.buf[this.at + 4] = x ? 1 : 0;
    this.at += 5;
  }

  private text(b: Buffer | null): void {
    if (b === null) {
      this.none();
      return;
    }
    this.room(b.length + 4);
    this.buf.writeInt32BE(b.length, this.at);
    b.copy(this.buf, this.at + 4);
    this.at += 4 + b.length;
  }

  private none(): void {
    this.buf.writeInt32BE(-1, this.at);
    this.at += 4;
  }

  add(series: SeriesRows): Promise<void> | undefined {
    if (!series.rows.length) return undefined;
    const project = this.str(series.project_id);
    const metric = this.str(series.metric);
    const channel = this.str(series.channel);
    const m = this.perMetric.get(series.metric)!;
    if (!this.started) {
      this.room(COPY_HEADER.length);
      COPY_HEADER.copy(this.buf, this.at);
      this.at += COPY_HEADER.length;
      this.started = true;
    }
    for (const r of series.rows) {
      // A row's fixed-size part (31 lengths, 11 floats, 7 four-byte values, 2 booleans) with
      // room to spare; text() makes room for its own bytes.
      this.room(256);
      this.buf.writeInt16BE(31, this.at);
      this.at += 2;
      this.text(project);
      this.date(r.d);
      this.text(metric);
      this.text(channel);
      this.float(r.value);
      this.float(r.expected);
      this.float(r.scale);
      this.int(r.n);
      this.date(r.windowFrom);
      this.date(r.windowTo);
      this.text(this.seasonality);
      this.float(r.z);
      this.float(r.rel);
      this.float(m.threshold);
      this.float(m.rel);
      this.float(m.abs);
      this.text(m.watch);
      this.text(r.direction === null ? null : this.str(r.direction));
      this.bool(r.fired);
      this.float(r.score);
      this.text(r.severity === null ? null : this.str(r.severity));
      this.text(r.kind === null ? null : this.str(r.kind));
      this.text(this.str(r.status));
      this.room(64);
      this.bool(r.excluded);
      this.date(r.anchor);
      this.int(r.runDays);
      this.text(this.str(r.model));
      this.room(16);
      this.float(r.precedent);
      this.text(r.explainedBy ? this.str(r.explainedBy.channel) : null);
      this.text(r.explainedBy ? this.str(r.explainedBy.metric) : null);
      this.text(r.explainedByEvent ? this.str(r.explainedByEvent.id) : null);
      this.rows += 1;
      if (r.fired) this.fired += 1;
    }
    return this.flush();
  }

  private flush(): Promise<void> | undefined {
    if (!this.at) return undefined;
    const chunk = Buffer.from(this.buf.subarray(0, this.at));
    this.at = 0;
    return this.copy.write(chunk);
  }

  async end() {
    if (this.started) {
      this.room(2);
      this.buf.writeInt16BE(-1, this.at);
      this.at += 2;
      const wait = this.flush();
      if (wait) await wait;
    }
    await this.copy.end();
    return { rows: this.rows, fired: this.fired };
  }
}

const BATCH_ROWS = 20_000;

const INSERT_SQL = `INSERT INTO anomalies_daily (${COLUMNS})
  SELECT p, DATE '2000-01-03' + d, m, c, v, e, sc, n, DATE '2000-01-03' + wf, DATE '2000-01-03' + wt, $20, z, rel,
    ($21::float8[])[mi], ($22::float8[])[mi], ($23::float8[])[mi], ($24::text[])[mi], dir, f, score, sev, k, st, ex,
    DATE '2000-01-03' + an, rd, mo, pr, xc, xm, xe
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::int[],
    $9::int[], $10::int[], $11::float8[], $12::float8[], $13::text[], $14::bool[], $15::float8[], $16::text[],
    $17::text[], $18::text[], $19::bool[], $25::int[], $26::int[], $27::text[], $28::int[], $29::float8[],
    $30::text[], $31::text[], $32::text[])
    AS t(p, d, m, c, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm, xe)`;

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
    return Array.from({ length: 27 }, () => []);
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
        row.explainedByEvent?.id ?? null,
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
    const [p, d, m, ch, v, e, sc, n, wf, wt, z, rel, dir, f, score, sev, k, st, ex, an, rd, mo, mi, pr, xc, xm, xe] =
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
      xe,
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
