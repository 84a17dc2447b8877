import { BinaryArray, BinaryWriter } from '../../platform/db/binary-values.js';
import type { CopyIn, SqlExecutor } from '../../platform/db/database.js';
import type { EvaluatedPoint } from './anomalies.rule.js';
import { METRICS, type EffectiveSettings, type Metric } from './anomalies.schemas.js';

/**
 * Writing evaluated rows into anomalies_daily. On PostgreSQL a COPY per pass, fed series by series
 * while the next ones are computed: the server inserts on one core while the rule runs on the
 * other. Elsewhere (PGlite) batches of column arrays, one INSERT … SELECT FROM unnest each.
 * Both send values in PostgreSQL's binary format (binary-values.ts), so both store the same.
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

/** Binary COPY (no number formatting on our side, no parsing on the server's). */
class CopySink implements RowSink {
  private rows = 0;
  private fired = 0;
  private readonly out = new BinaryWriter(1 << 20);
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

  private date(d: number | null): void {
    this.out.int4(d === null ? null : d + PG_DATE_OFFSET);
  }

  add(series: SeriesRows): Promise<void> | undefined {
    if (!series.rows.length) return undefined;
    const o = this.out;
    const project = this.str(series.project_id);
    const metric = this.str(series.metric);
    const channel = this.str(series.channel);
    const m = this.perMetric.get(series.metric)!;
    if (!this.started) {
      o.bytes(COPY_HEADER);
      this.started = true;
    }
    for (const r of series.rows) {
      o.int16(31);
      o.text(project);
      this.date(r.d);
      o.text(metric);
      o.text(channel);
      o.float8(r.value);
      o.float8(r.expected);
      o.float8(r.scale);
      o.int4(r.n);
      this.date(r.windowFrom);
      this.date(r.windowTo);
      o.text(this.seasonality);
      o.float8(r.z);
      o.float8(r.rel);
      o.float8(m.threshold);
      o.float8(m.rel);
      o.float8(m.abs);
      o.text(m.watch);
      o.text(r.direction === null ? null : this.str(r.direction));
      o.bool(r.fired);
      o.float8(r.score);
      o.text(r.severity === null ? null : this.str(r.severity));
      o.text(r.kind === null ? null : this.str(r.kind));
      o.text(this.str(r.status));
      o.bool(r.excluded);
      this.date(r.anchor);
      o.int4(r.runDays);
      o.text(this.str(r.model));
      o.float8(r.precedent);
      o.text(r.explainedBy ? this.str(r.explainedBy.channel) : null);
      o.text(r.explainedBy ? this.str(r.explainedBy.metric) : null);
      o.text(r.explainedByEvent ? this.str(r.explainedByEvent.id) : null);
      this.rows += 1;
      if (r.fired) this.fired += 1;
    }
    return this.flush();
  }

  private flush(): Promise<void> | undefined {
    if (!this.out.length) return undefined;
    return this.copy.write(this.out.take());
  }

  async end() {
    if (this.started) {
      this.out.int16(-1);
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

/** The column arrays of one INSERT, in the order of its parameters $1–$19 and $25–$32. */
function unnestColumns() {
  return {
    p: new BinaryArray('text'),
    d: new BinaryArray('int4'),
    m: new BinaryArray('text'),
    c: new BinaryArray('text'),
    v: new BinaryArray('float8'),
    e: new BinaryArray('float8'),
    sc: new BinaryArray('float8'),
    n: new BinaryArray('int4'),
    wf: new BinaryArray('int4'),
    wt: new BinaryArray('int4'),
    z: new BinaryArray('float8'),
    rel: new BinaryArray('float8'),
    dir: new BinaryArray('text'),
    f: new BinaryArray('bool'),
    score: new BinaryArray('float8'),
    sev: new BinaryArray('text'),
    k: new BinaryArray('text'),
    st: new BinaryArray('text'),
    ex: new BinaryArray('bool'),
    an: new BinaryArray('int4'),
    rd: new BinaryArray('int4'),
    mo: new BinaryArray('text'),
    mi: new BinaryArray('int4'),
    pr: new BinaryArray('float8'),
    xc: new BinaryArray('text'),
    xm: new BinaryArray('text'),
    xe: new BinaryArray('text'),
  };
}

/**
 * Batches of column arrays, one INSERT … SELECT FROM unnest per BATCH_ROWS rows (the store without
 * COPY: PGlite). The arrays go as binary parameters: in PGlite's WASM build the server's text
 * parsing of the float columns was most of the write (BENCHMARKS.md, anomalies notes).
 */
class UnnestSink implements RowSink {
  private readonly cols = unnestColumns();
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

  add(series: SeriesRows): Promise<void> | undefined {
    const mi = METRICS.indexOf(series.metric) + 1;
    const c = this.cols;
    for (const row of series.rows) {
      c.p.push(series.project_id);
      c.d.push(row.d);
      c.m.push(series.metric);
      c.c.push(series.channel);
      c.v.push(row.value);
      c.e.push(row.expected);
      c.sc.push(row.scale);
      c.n.push(row.n);
      c.wf.push(row.windowFrom);
      c.wt.push(row.windowTo);
      c.z.push(row.z);
      c.rel.push(row.rel);
      c.dir.push(row.direction);
      c.f.push(row.fired);
      c.score.push(row.score);
      c.sev.push(row.severity);
      c.k.push(row.kind);
      c.st.push(row.status);
      c.ex.push(row.excluded);
      c.an.push(row.anchor);
      c.rd.push(row.runDays);
      c.mo.push(row.model);
      c.mi.push(mi);
      c.pr.push(row.precedent);
      c.xc.push(row.explainedBy?.channel);
      c.xm.push(row.explainedBy?.metric);
      c.xe.push(row.explainedByEvent?.id);
      this.pending += 1;
      this.rows += 1;
      if (row.fired) this.fired += 1;
    }
    return this.pending >= BATCH_ROWS ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (!this.pending) return;
    const c = this.cols;
    this.pending = 0;
    const pm = this.perMetric;
    await this.tx.query(INSERT_SQL, [
      c.p.take(),
      c.d.take(),
      c.m.take(),
      c.c.take(),
      c.v.take(),
      c.e.take(),
      c.sc.take(),
      c.n.take(),
      c.wf.take(),
      c.wt.take(),
      c.z.take(),
      c.rel.take(),
      c.dir.take(),
      c.f.take(),
      c.score.take(),
      c.sev.take(),
      c.k.take(),
      c.st.take(),
      c.ex.take(),
      this.s.seasonality,
      pm.map((r) => r.threshold),
      pm.map((r) => r.min_relative_change),
      pm.map((r) => r.min_abs_change),
      pm.map((r) => r.direction),
      c.an.take(),
      c.rd.take(),
      c.mo.take(),
      c.mi.take(),
      c.pr.take(),
      c.xc.take(),
      c.xm.take(),
      c.xe.take(),
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
