/**
 * PostgreSQL's binary wire format for values (the `*_recv` functions' input): what a binary COPY
 * row is made of, and what a one-dimensional array parameter is when it is sent as a Buffer (both
 * drivers send a Buffer parameter in binary format; the server reads it with `array_recv`).
 *
 * Why binary at all: the server parses text numbers with `float8in`, which in PGlite's WASM build
 * costs ~1.7 µs per element, and a bulk write of anomaly rows sends seven float columns. Read
 * binary, the same array costs ~0.1 µs per element (BENCHMARKS.md, anomalies notes).
 *
 * A float is stored as the text path would store it: String(x) round-trips every double except
 * −0, which it writes as 0, so −0 goes out as 0 here too and both paths store the same values.
 */
export class BinaryWriter {
  private buf: Buffer;
  // The same bytes through a DataView: its big-endian setters compile to a store or two, where
  // Buffer's write*BE go through bounds checks and byte-wise copies (the encoding of a full
  // anomaly pass is millions of fields).
  private view: DataView;
  private at = 0;

  constructor(initialBytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  get length(): number {
    return this.at;
  }

  /** Makes sure `bytes` more fit. */
  room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  /** Raw bytes (a COPY header). */
  bytes(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }

  int16(x: number): void {
    this.room(2);
    this.view.setInt16(this.at, x);
    this.at += 2;
  }

  int32(x: number): void {
    this.room(4);
    this.view.setInt32(this.at, x);
    this.at += 4;
  }

  /**
   * The field methods below write one field: its type OID first when `oid` is not 0 (a composite's
   * field), then its length (−1 for NULL) and its bytes.
   */
  private head(oid: number, length: number, bytes: number): void {
    this.room(bytes + 8);
    if (oid !== 0) {
      this.view.setInt32(this.at, oid);
      this.at += 4;
    }
    this.view.setInt32(this.at, length);
    this.at += 4;
  }

  float8(x: number | null, oid = 0): void {
    if (x === null) {
      this.head(oid, -1, 0);
      return;
    }
    this.head(oid, 8, 8);
    this.view.setFloat64(this.at, x === 0 ? 0 : x);
    this.at += 8;
  }

  int4(x: number | null, oid = 0): void {
    if (x === null) {
      this.head(oid, -1, 0);
      return;
    }
    this.head(oid, 4, 4);
    this.view.setInt32(this.at, x);
    this.at += 4;
  }

  bool(x: boolean | null, oid = 0): void {
    if (x === null) {
      this.head(oid, -1, 0);
      return;
    }
    this.head(oid, 1, 1);
    this.buf[this.at] = x ? 1 : 0;
    this.at += 1;
  }

  /** Text already encoded as UTF-8 (callers keep the few distinct strings they repeat). */
  text(b: Buffer | null, oid = 0): void {
    if (b === null) {
      this.head(oid, -1, 0);
      return;
    }
    const n = b.length;
    this.head(oid, n, n);
    const buf = this.buf;
    const at = this.at;
    // Names and statuses are a few bytes: a loop beats a native copy's call there.
    if (n <= 32) for (let k = 0; k < n; k += 1) buf[at + k] = b[k]!;
    else b.copy(buf, at);
    this.at = at + n;
  }

  /** Overwrites a 32-bit field written earlier (an array header's counts, known at the end). */
  patchInt32(offset: number, x: number): void {
    this.view.setInt32(offset, x);
  }

  /** A copy of what was written; the writer starts empty again and keeps its buffer. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at));
    this.at = 0;
    return out;
  }
}

/** Type OIDs of the built-in types a binary field may hold (pg_type). */
const TYPE_OID = { bool: 16, int4: 23, text: 25, float8: 701, date: 1082 } as const;

/**
 * The fields of one row, in order: a binary COPY row's fields (`typed` false), or a composite
 * value's (`typed` true: record_recv wants each field's type OID before it, and refuses a field
 * whose type is not the composite's).
 */
export class FieldWriter {
  constructor(
    private readonly out: BinaryWriter,
    private readonly typed: boolean,
  ) {}

  private oid(oid: number): number {
    return this.typed ? oid : 0;
  }

  float8(x: number | null): void {
    this.out.float8(x, this.oid(TYPE_OID.float8));
  }

  int4(x: number | null): void {
    this.out.int4(x, this.oid(TYPE_OID.int4));
  }

  bool(x: boolean | null): void {
    this.out.bool(x, this.oid(TYPE_OID.bool));
  }

  text(b: Buffer | null): void {
    this.out.text(b, this.oid(TYPE_OID.text));
  }

  /** A date as days since 2000-01-01 (PostgreSQL's epoch for dates). */
  date(days: number | null): void {
    this.out.int4(days, this.oid(TYPE_OID.date));
  }
}

/**
 * A one-dimensional array of composite values, sent as one Buffer parameter and read by
 * `array_recv` and `record_recv`: `INSERT … SELECT * FROM unnest($1::some_row[])` inserts a batch
 * with one parameter and one set-returning call, where one array per column cost ~30% more of
 * PGlite's write (BENCHMARKS.md, anomalies notes).
 */
export class RecordArrayWriter {
  private readonly out = new BinaryWriter(1 << 20);
  readonly fields = new FieldWriter(this.out, true);
  private count = 0;
  private recordStart = -1;

  constructor() {
    this.header();
  }

  private header(): void {
    this.out.int32(1); // dimensions
    this.out.int32(0); // has nulls: never, every element is a record
    this.out.int32(0); // element type, set in take()
    this.out.int32(0); // length, set in take()
    this.out.int32(1); // lower bound
  }

  get length(): number {
    return this.count;
  }

  /** Starts an element: the fields written next, `fieldCount` of them, are its fields. */
  beginRecord(fieldCount: number): void {
    this.recordStart = this.out.length;
    this.out.int32(0); // the element's byte length, set in endRecord()
    this.out.int32(fieldCount);
  }

  endRecord(): void {
    this.out.patchInt32(this.recordStart, this.out.length - this.recordStart - 4);
    this.count += 1;
  }

  /** The parameter, an array of the composite type `elementOid`; the array starts empty again. */
  take(elementOid: number): Buffer {
    const empty = this.count === 0;
    this.out.patchInt32(8, elementOid);
    this.out.patchInt32(12, this.count);
    // array_recv reads an empty array as zero dimensions (the header's first 12 bytes), not as one
    // dimension of length 0.
    if (empty) this.out.patchInt32(0, 0);
    const out = this.out.take();
    this.count = 0;
    this.header();
    return empty ? out.subarray(0, 12) : out;
  }
}
