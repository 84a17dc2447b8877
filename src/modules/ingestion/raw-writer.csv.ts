import type { CanonicalRecord } from '../providers/index.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
/** Bytes handed to the COPY stream per write: large enough to amortize a write, small enough to stay flat. */
export const WRITE_BYTES = 256 * 1024;
/** Per number: the longest text String() gives a double ("-2.2250738585072014e-308") and a comma. */
const NUMBER_BYTES = 32;

/**
 * The COPY … (FORMAT csv) text of raw records, written straight into Buffers. It is byte for byte
 * what a template string would give (`"run","ds",date,"id","name","channel","cur",spend,…`, text
 * fields quoted with quotes doubled, numbers as String(n) prints them) without building a string
 * per row: at 1M rows the strings, their concatenation and their UTF-8 conversion cost about three
 * times the encoding itself and fed the garbage collector (bench:ingest), on the core the database
 * needs. ASCII is copied byte by byte; a field with any other character goes through utf8Write.
 */
export class RawCsvEncoder {
  private buf = Buffer.allocUnsafe(WRITE_BYTES * 2);
  private off = 0;
  private readonly prefix: Buffer;
  private suffix: Buffer = Buffer.from('\n');

  /** `leading`: the fields every row starts with (run and datastream), already as CSV. */
  constructor(leading: string) {
    this.prefix = Buffer.from(leading);
  }

  /** Bytes written since the last take(). */
  get size(): number {
    return this.off;
  }

  /** What every row ends with (its newline included), e.g. the chunk number. */
  endRowsWith(suffix: string): void {
    this.suffix = Buffer.from(suffix);
  }

  row(r: CanonicalRecord): void {
    const texts = r.date.length + r.campaign_id.length + r.campaign_name.length + r.channel.length + r.currency.length;
    // Worst case: every character a quote (doubled) or 3 UTF-8 bytes (either way at most 6 bytes
    // per UTF-16 unit after quoting), plus the quotes, separators and numbers.
    this.reserve(this.prefix.length + this.suffix.length + 6 * texts + 10 + 5 * NUMBER_BYTES);
    this.off += this.prefix.copy(this.buf, this.off);
    this.plain(r.date);
    this.buf[this.off++] = COMMA;
    this.quoted(r.campaign_id);
    this.buf[this.off++] = COMMA;
    this.quoted(r.campaign_name);
    this.buf[this.off++] = COMMA;
    this.quoted(r.channel);
    this.buf[this.off++] = COMMA;
    this.quoted(r.currency);
    this.buf[this.off++] = COMMA;
    this.number(r.spend);
    this.buf[this.off++] = COMMA;
    this.number(r.impressions);
    this.buf[this.off++] = COMMA;
    this.number(r.clicks);
    this.buf[this.off++] = COMMA;
    this.number(r.conversions);
    this.buf[this.off++] = COMMA;
    this.number(r.revenue);
    this.off += this.suffix.copy(this.buf, this.off);
  }

  /** The bytes written so far; later rows go to a fresh buffer (the stream may still hold this one). */
  take(): Buffer {
    const out = this.buf.subarray(0, this.off);
    this.buf = Buffer.allocUnsafe(WRITE_BYTES * 2);
    this.off = 0;
    return out;
  }

  private reserve(bytes: number): void {
    if (this.off + bytes <= this.buf.length) return;
    // Only a row far larger than usual gets here before take(): keep what is written, grow.
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.off + bytes));
    this.buf.copy(bigger, 0, 0, this.off);
    this.buf = bigger;
  }

  /** `"text"` with quotes doubled. */
  private quoted(s: string): void {
    const buf = this.buf;
    const start = this.off;
    let o = start;
    buf[o++] = QUOTE;
    for (let i = 0; i < s.length; i += 1) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        this.off = start + buf.write(`"${s.replaceAll('"', '""')}"`, start, 'utf8');
        return;
      }
      if (c === QUOTE) buf[o++] = QUOTE;
      buf[o++] = c;
    }
    buf[o++] = QUOTE;
    this.off = o;
  }

  private plain(s: string): void {
    const buf = this.buf;
    const start = this.off;
    let o = start;
    for (let i = 0; i < s.length; i += 1) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        this.off = start + buf.write(s, start, 'utf8');
        return;
      }
      buf[o++] = c;
    }
    this.off = o;
  }

  /**
   * String(x), without the string for the usual values: integers, and amounts with at most two
   * decimals. For those (below 2^31 cents) x is the double nearest to cents / 100 only when that
   * decimal is x's shortest round-trip representation, which is what String(x) prints.
   */
  private number(x: number): void {
    if (Number.isSafeInteger(x)) {
      if (x < 0) {
        this.buf[this.off++] = MINUS;
        x = -x;
      }
      this.digits(x);
      return;
    }
    const cents = Math.round(x * 100);
    if (cents / 100 !== x || cents > 0x7fffffff || cents < -0x7fffffff) {
      this.plain(String(x));
      return;
    }
    let abs = cents;
    if (abs < 0) {
      this.buf[this.off++] = MINUS;
      abs = -abs;
    }
    const whole = Math.floor(abs / 100);
    const frac = abs - whole * 100;
    this.digits(whole);
    this.buf[this.off++] = DOT;
    // Not an integer, so frac > 0; String() drops a trailing zero.
    if (frac % 10 === 0) {
      this.buf[this.off++] = ZERO + frac / 10;
    } else {
      this.buf[this.off++] = ZERO + Math.floor(frac / 10);
      this.buf[this.off++] = ZERO + (frac % 10);
    }
  }

  /** A non-negative safe integer in decimal. */
  private digits(v: number): void {
    let n = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) n += 1;
    const buf = this.buf;
    let o = this.off + n;
    this.off = o;
    while (v >= 10) {
      const q = Math.floor(v / 10);
      buf[--o] = ZERO + (v - q * 10);
      v = q;
    }
    buf[--o] = ZERO + v;
  }
}
