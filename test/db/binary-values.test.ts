import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryArray } from '../../src/platform/db/binary-values.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

/**
 * Array parameters sent in PostgreSQL's binary format (the anomaly rows' bulk write on PGlite)
 * store exactly what the same arrays sent as text store: the server reads both, and the rows
 * written either way must not differ in a bit.
 */
describe.each(STORES)('binary array parameters [%s]', (store) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(store);
  });
  afterAll(async () => {
    await test?.drop();
  });

  function binary<K extends 'float8' | 'int4' | 'bool' | 'text'>(element: K, values: unknown[]): Buffer {
    const a = new BinaryArray(element);
    for (const v of values) a.push(v as never);
    return a.take();
  }

  /** The elements as the store gives them back, with their position and whether each is NULL. */
  async function roundTrip(type: string, param: unknown): Promise<{ i: number; x: unknown; isnull: boolean }[]> {
    return test.db.query(
      `SELECT i::int, x, x IS NULL AS isnull FROM unnest($1::${type}[]) WITH ORDINALITY AS t(x, i) ORDER BY i`,
      [param],
    );
  }

  it('floats: every double as the text path stores it, −0 as 0, NULLs in place', async () => {
    const values = [
      0.1,
      1 / 3,
      -0,
      0,
      1e-300,
      -1.7976931348623157e308,
      5e-324,
      123456.789,
      null,
      Number.NaN,
      2 ** 53 + 2,
    ];
    const sent = await roundTrip('float8', binary('float8', values));
    const asText = await roundTrip('float8', values);
    expect(sent).toEqual(asText);
    expect(sent).toHaveLength(values.length);
    expect(Object.is(sent[2]!.x, 0)).toBe(true);
    expect(sent[8]!.isnull).toBe(true);
    expect(Number.isNaN(sent[9]!.x)).toBe(true);
    expect(sent[10]!.x).toBe(2 ** 53 + 2);
  });

  it('integers, booleans and text (UTF-8, empty, repeated) read back as sent', async () => {
    const ints = [0, -1, 2147483647, -2147483648, null, 42];
    expect((await roundTrip('int', binary('int4', ints))).map((r) => r.x)).toEqual(ints);
    const bools = [true, false, null, true];
    expect((await roundTrip('bool', binary('bool', bools))).map((r) => r.x)).toEqual(bools);
    const texts = ['paid_search', 'ünïcødé ✓ 日本', '', null, 'paid_search', 'quote \' " \\ {braces}, commas'];
    expect((await roundTrip('text', binary('text', texts))).map((r) => r.x)).toEqual(texts);
  });

  it('an empty array, and an array taken twice starts empty again', async () => {
    expect(await roundTrip('float8', binary('float8', []))).toEqual([]);
    const a = new BinaryArray('int4');
    a.push(1);
    a.push(2);
    expect((await roundTrip('int', a.take())).map((r) => r.x)).toEqual([1, 2]);
    a.push(3);
    expect((await roundTrip('int', a.take())).map((r) => r.x)).toEqual([3]);
    expect(await roundTrip('int', a.take())).toEqual([]);
  });

  it('the server refuses an array of another element type than the statement names', async () => {
    await expect(test.db.query('SELECT cardinality($1::int[])', [binary('float8', [1.5])])).rejects.toThrow(
      /element type 701 \(double precision\) instead of expected 23/,
    );
  });
});
