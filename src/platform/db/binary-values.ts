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
  private at = 0;

  constructor(initialBytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  get length(): number {
    return this.at;
  }

  /** Makes sure `bytes` more fit; writers of fixed-size fields call it once for several fields. */
  room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  /** Raw bytes (a COPY header). */
  bytes(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }

  int16(x: number): void {
    this.room(2);
    this.buf.writeInt16BE(x, this.at);
    this.at += 2;
  }

  int32(x: number): void {
    this.room(4);
    this.buf.writeInt32BE(x, this.at);
    this.at += 4;
  }

  /** A NULL field: its length −1 and no bytes. */
  none(): void {
    this.int32(-1);
  }

  float8(x: number | null): void {
    if (x === null) {
      this.none();
      return;
    }
    this.room(12);
    this.buf.writeInt32BE(8, this.at);
    this.buf.writeDoubleBE(x === 0 ? 0 : x, this.at + 4);
    this.at += 12;
  }

  int4(x: number | null): void {
    if (x === null) {
      this.none();
      return;
    }
    this.room(8);
    this.buf.writeInt32BE(4, this.at);
    this.buf.writeInt32BE(x, this.at + 4);
    this.at += 8;
  }

  bool(x: boolean | null): void {
    if (x === null) {
      this.none();
      return;
    }
    this.room(5);
    this.buf.writeInt32BE(1, this.at);
    this.buf[this.at + 4] = x ? 1 : 0;
    this.at += 5;
  }

  /** Text already encoded as UTF-8 (callers keep the few distinct strings they repeat). */
  text(b: Buffer | null): void {
    if (b === null) {
      this.none();
      return;
    }
    this.room(b.length + 4);
    this.buf.writeInt32BE(b.length, this.at);
    b.copy(this.buf, this.at + 4);
    this.at += 4 + b.length;
  }

  /** Overwrites a 32-bit field written earlier (an array header's counts, known at the end). */
  patchInt32(offset: number, x: number): void {
    this.buf.writeInt32BE(x, offset);
  }

  /** A copy of what was written; the writer starts empty again and keeps its buffer. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at));
    this.at = 0;
    return out;
  }
}

function int32Bytes(x: number): number[] {
  return [(x >>> 24) & 0xff, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff];
}

/** Element type OIDs of the arrays below (pg_type). */
const ELEMENT_OID = { bool: 16, int4: 23, text: 25, float8: 701 } as const;
export type ArrayElement = keyof typeof ELEMENT_OID;

type ElementValue<K extends ArrayElement> = K extends 'bool' ? boolean : K extends 'text' ? string : number;

/**
 * A one-dimensional array parameter built element by element, sent as a Buffer: `array_recv`'s
 * format (dimensions, a has-nulls flag, the element type, the length and lower bound, then each
 * element as a field). The statement must cast the parameter to the same element type
 * (`$1::float8[]`); the server refuses another.
 */
export class BinaryArray<K extends ArrayElement> {
  private readonly w = new BinaryWriter();
  private count = 0;
  private nulls = false;
  private readonly strings = new Map<string, Buffer>();

  constructor(private readonly element: K) {
    this.header();
  }

  private header(): void {
    this.w.int32(1); // dimensions
    this.w.int32(0); // has nulls, patched in take()
    this.w.int32(ELEMENT_OID[this.element]);
    this.w.int32(0); // length, patched in take()
    this.w.int32(1); // lower bound
  }

  get length(): number {
    return this.count;
  }

  push(value: ElementValue<K> | null | undefined): void {
    this.count += 1;
    if (value === null || value === undefined) {
      this.nulls = true;
      this.w.none();
      return;
    }
    switch (this.element) {
      case 'float8':
        this.w.float8(value as number);
        break;
      case 'int4':
        this.w.int4(value as number);
        break;
      case 'bool':
        this.w.bool(value as boolean);
        break;
      case 'text':
        this.w.text(this.utf8(value as string));
        break;
    }
  }

  /** The few distinct strings of a bulk write (names, statuses) encoded once. */
  private utf8(t: string): Buffer {
    let b = this.strings.get(t);
    if (!b) {
      b = Buffer.from(t, 'utf8');
      if (this.strings.size < 4096) this.strings.set(t, b);
    }
    return b;
  }

  /** The parameter; the array starts empty again. */
  take(): Buffer {
    // array_recv reads an empty array as zero dimensions, not as one dimension of length 0.
    if (this.count === 0) return Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, ...int32Bytes(ELEMENT_OID[this.element])]);
    this.w.patchInt32(4, this.nulls ? 1 : 0);
    this.w.patchInt32(12, this.count);
    const out = this.w.take();
    this.count = 0;
    this.nulls = false;
    this.header();
    return out;
  }
}
