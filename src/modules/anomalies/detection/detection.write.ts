import { BinaryWriter, FieldWriter, RecordArrayWriter } from '../../../platform/db/binary-values.js';
import type { CopyIn, SqlExecutor } from '../../../platform/db/database.js';
import { anomalyRowType, copyRows, insertRowArray, ROW_FIELD_COUNT } from './detection.repo.js';
import type { EvaluatedPoint } from './rule/rule.series.js';
import { METRICS, type Metric } from '../anomalies.schemas.js';
import type { EffectiveSettings } from './detection.schemas.js';

/**
 * Writing evaluated rows into anomalies_daily. On PostgreSQL a COPY per pass, fed series by series
 * while the next ones are computed: the server inserts on one core while the rule runs on the
 * other. Elsewhere (PGlite) batches of rows, one INSERT of an array of composites each. Both
 * encode a row the same way, in PostgreSQL's binary format (binary-values.ts).
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
  const copy = copyRows(tx);
  return copy ? new CopySink(copy, s) : new RecordArraySink(tx, s);
}

/** PGCOPY signature, flags and header extension length: the start of a binary COPY. */
const COPY_HEADER = Buffer.from([...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), ...[0, 0, 0, 0], ...[0, 0, 0, 0]]);
/** Dates travel as days since 2000-01-01; day numbers count from Monday 2000-01-03. */
const PG_DATE_OFFSET = 2;

/**
 * Encodes evaluated rows field by field, in the column order of detection.repo.ts: the one encoding of a row for both
 * sinks (a COPY row on PostgreSQL, an `anomaly_row` composite on PGlite). A float is stored as
 * the text path stored it (binary-values.ts).
 */
class RowEncoder {
  private readonly strings = new Map<string, Buffer>();
  private readonly perMetric: Map<Metric, { threshold: number; rel: number; abs: number; watch: Buffer }>;
  private readonly seasonality: Buffer;

  constructor(s: EffectiveSettings) {
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

  /** Writes each row of the series into `f`: `begin` before its fields, `end` after them; returns how many fired. */
  encode(series: SeriesRows, f: FieldWriter, begin: () => void, end: () => void): number {
    const project = this.str(series.project_id);
    const metric = this.str(series.metric);
    const channel = this.str(series.channel);
    const m = this.perMetric.get(series.metric)!;
    const date = (d: number | null) => f.date(d === null ? null : d + PG_DATE_OFFSET);
    let fired = 0;
    for (const r of series.rows) {
      begin();
      f.text(project);
      date(r.d);
      f.text(metric);
      f.text(channel);
      f.float8(r.value);
      f.float8(r.expected);
      f.float8(r.scale);
      f.int4(r.n);
      date(r.windowFrom);
      date(r.windowTo);
      f.text(this.seasonality);
      f.float8(r.z);
      f.float8(r.rel);
      f.float8(m.threshold);
      f.float8(m.rel);
      f.float8(m.abs);
      f.text(m.watch);
      f.text(r.direction === null ? null : this.str(r.direction));
      f.bool(r.fired);
      f.float8(r.score);
      f.text(r.severity === null ? null : this.str(r.severity));
      f.text(r.kind === null ? null : this.str(r.kind));
      f.text(this.str(r.status));
      f.bool(r.excluded);
      date(r.anchor);
      f.int4(r.runDays);
      f.text(this.str(r.model));
      f.float8(r.precedent);
      f.text(r.explainedBy ? this.str(r.explainedBy.channel) : null);
      f.text(r.explainedBy ? this.str(r.explainedBy.metric) : null);
      f.text(r.explainedByEvent ? this.str(r.explainedByEvent.id) : null);
      end();
      if (r.fired) fired += 1;
    }
    return fired;
  }
}

/** Binary COPY (no number formatting on our side, no parsing on the server's). */
class CopySink implements RowSink {
  private rows = 0;
  private fired = 0;
  private readonly out = new BinaryWriter(1 << 20);
  private readonly fields = new FieldWriter(this.out, false);
  private readonly encoder: RowEncoder;
  private started = false;

  constructor(
    private readonly copy: CopyIn,
    s: EffectiveSettings,
  ) {
    this.encoder = new RowEncoder(s);
  }

  add(series: SeriesRows): Promise<void> | undefined {
    if (!series.rows.length) return undefined;
    if (!this.started) {
      this.out.bytes(COPY_HEADER);
      this.started = true;
    }
    const begin = () => this.out.int16(ROW_FIELD_COUNT);
    this.fired += this.encoder.encode(series, this.fields, begin, noop);
    this.rows += series.rows.length;
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

function noop(): void {}

const BATCH_ROWS = 20_000;

/**
 * The store without COPY (PGlite): batches of BATCH_ROWS rows, each one INSERT of an array of
 * `anomaly_row` composites (migration 0040) sent in binary. In PGlite's WASM build the server's
 * parsing of text floats was most of the write, and one array per column a third of the rest
 * (BENCHMARKS.md, anomalies notes).
 */
class RecordArraySink implements RowSink {
  private readonly batch = new RecordArrayWriter();
  private readonly encoder: RowEncoder;
  private rows = 0;
  private fired = 0;
  private rowType: number | undefined;

  constructor(
    private readonly tx: SqlExecutor,
    s: EffectiveSettings,
  ) {
    this.encoder = new RowEncoder(s);
  }

  add(series: SeriesRows): Promise<void> | undefined {
    const b = this.batch;
    this.fired += this.encoder.encode(
      series,
      b.fields,
      () => b.beginRecord(ROW_FIELD_COUNT),
      () => b.endRecord(),
    );
    this.rows += series.rows.length;
    return b.length >= BATCH_ROWS ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (!this.batch.length) return;
    // The composite's OID is the store's own (made by its migration): asked once per evaluation.
    this.rowType ??= await anomalyRowType(this.tx);
    await insertRowArray(this.tx, this.batch.take(this.rowType));
  }

  async end() {
    await this.flush();
    return { rows: this.rows, fired: this.fired };
  }
}
