import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordArrayWriter } from '../../src/platform/db/binary-values.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

type Row = { x: number | null; i: number | null; b: boolean | null; s: string | null; d: number | null };

/**
 * Rows sent as one binary array of composites (the anomaly rows' bulk write on PGlite) store
 * exactly what the same values sent as text store: the rows written either way must not differ
 * in a bit.
 */
describe.each(STORES)('binary composite arrays [%s]', (store) => {
  let test: TestDatabase;
  let rowType: number;
  beforeAll(async () => {
    test = await openTestDatabase(store);
    await test.db.query('CREATE TYPE t_row AS (x float8, i int, b bool, s text, d date)');
    rowType = (await test.db.query<{ oid: number }>(`SELECT 't_row'::regtype::oid::int AS oid`))[0]!.oid;
  });
  afterAll(async () => {
    await test?.drop();
  });

  function encode(rows: Row[], writer = new RecordArrayWriter()): Buffer {
    const f = writer.fields;
    for (const r of rows) {
      writer.beginRecord(5);
      f.float8(r.x);
      f.int4(r.i);
      f.bool(r.b);
      f.text(r.s === null ? null : Buffer.from(r.s, 'utf8'));
      // Days since 2000-01-01.
      f.date(r.d);
      writer.endRecord();
    }
    return writer.take(rowType);
  }

  const SELECT = `SELECT n::int, x, i, b, s, d, x IS NULL AS x_null`;

  async function viaBinary(param: Buffer) {
    return test.db.query(`${SELECT} FROM unnest($1::t_row[]) WITH ORDINALITY AS t(x, i, b, s, d, n) ORDER BY n`, [
      param,
    ]);
  }

  async function viaText(rows: Row[]) {
    return test.db.query(
      `${SELECT} FROM unnest($1::float8[], $2::int[], $3::bool[], $4::text[], $5::int[]) WITH ORDINALITY AS t0(x, i, b, s, dn, n),
         LATERAL (SELECT DATE '2000-01-01' + dn AS d) dd ORDER BY n`,
      [rows.map((r) => r.x), rows.map((r) => r.i), rows.map((r) => r.b), rows.map((r) => r.s), rows.map((r) => r.d)],
    );
  }

  it('every field as the text path stores it: floats (−0 as 0, NaN, extremes), NULLs, UTF-8, dates', async () => {
    const xs = [0.1, 1 / 3, -0, 0, 1e-300, -1.7976931348623157e308, 5e-324, 123456.789, null, Number.NaN, 2 ** 53 + 2];
    const texts = ['paid_search', 'ünïcødé ✓ 日本', '', null, 'quote \' " \\ {braces}, (commas)'];
    const rows: Row[] = xs.map((x, k) => ({
      x,
      i: [0, -1, 2147483647, -2147483648, null][k % 5]!,
      b: [true, false, null][k % 3]!,
      s: texts[k % texts.length]!,
      d: [0, 9131, -1, null][k % 4]!,
    }));
    const sent = await viaBinary(encode(rows));
    expect(sent).toEqual(await viaText(rows));
    expect(sent).toHaveLength(rows.length);
    expect(Object.is(sent[2]!.x, 0)).toBe(true);
    expect(sent[8]!.x_null).toBe(true);
    expect(Number.isNaN(sent[9]!.x)).toBe(true);
    expect(sent[10]!.x).toBe(2 ** 53 + 2);
    expect(sent[1]!.d).toBe('2024-12-31');
  });

  it('an empty array, and a writer taken twice starts empty again', async () => {
    expect(await viaBinary(encode([]))).toEqual([]);
    const writer = new RecordArrayWriter();
    const one = { x: 1.5, i: 1, b: true, s: 'a', d: 0 };
    expect(await viaBinary(encode([one, { ...one, i: 2 }], writer))).toHaveLength(2);
    expect((await viaBinary(encode([{ ...one, i: 3 }], writer))).map((r) => r.i)).toEqual([3]);
    expect(await viaBinary(writer.take(rowType))).toEqual([]);
  });

  it('the server refuses a field of another type than the composite names', async () => {
    const writer = new RecordArrayWriter();
    writer.beginRecord(5);
    writer.fields.int4(1); // x is float8
    writer.fields.int4(1);
    writer.fields.bool(true);
    writer.fields.text(null);
    writer.fields.date(null);
    writer.endRecord();
    await expect(viaBinary(writer.take(rowType))).rejects.toThrow(
      /binary data has type 23 \(integer\) instead of expected 701/,
    );
  });
});
