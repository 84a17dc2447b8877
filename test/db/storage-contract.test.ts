import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/database.js';
import { migrate, pendingMigrations, splitStatements } from '../../src/platform/db/migrate.js';
import { EMBEDDED_SHARED_BUFFERS } from '../../src/platform/db/pglite.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

/** What every repository relies on, proven on both stores. */
describe.each(STORES)('storage contract [%s]', (store) => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await openTestDatabase(store);
    db = test.db;
    await migrate(db);
    await db.exec('CREATE TABLE contract_t (id bigserial PRIMARY KEY, d date, n numeric, label text)');
  });
  afterAll(async () => test?.drop());

  it('closes idempotently, so a store closed early is still dropped', async () => {
    const other = await openTestDatabase(store);
    await other.db.query('SELECT 1');
    await Promise.all([other.db.close(), other.db.close()]);
    await other.db.close();
    await other.drop();
    if (other.database) {
      const left = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [
        other.database,
      ]);
      expect(left[0]!.n).toBe(0);
    }
  });

  it('has every migration applied, and a second migrate applies nothing', async () => {
    expect(await pendingMigrations(db)).toEqual([]);
    const again = await migrate(db);
    expect(again.applied).toEqual([]);
  });

  it('normalizes values: count and int8 as numbers, numeric as numbers, date as YYYY-MM-DD', async () => {
    await db.query("INSERT INTO contract_t (d, n, label) VALUES ('2026-03-29', 12.5, 'a'), ('2026-03-30', 0.25, 'b')");
    const [row] = await db.query<{ c: number; id: number; d: string; n: number }>(
      "SELECT count(*) OVER () AS c, id, d, n FROM contract_t WHERE label = 'a'",
    );
    expect(row).toEqual({ c: 1, id: expect.any(Number), d: '2026-03-29', n: 12.5 });
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO contract_t (label) VALUES ('rolled-back')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query("SELECT 1 FROM contract_t WHERE label = 'rolled-back'")).toEqual([]);
  });

  it('commits a successful transaction and returns its value', async () => {
    const id = await db.transaction(
      async (tx) =>
        (await tx.query<{ id: number }>("INSERT INTO contract_t (label) VALUES ('kept') RETURNING id"))[0]!.id,
    );
    expect((await db.query<{ id: number }>("SELECT id FROM contract_t WHERE label = 'kept'"))[0]!.id).toBe(id);
  });

  it('serializes work under one advisory lock', async () => {
    const order: string[] = [];
    const run = (name: string) =>
      db.withAdvisoryLock(42, async (tx) => {
        order.push(`${name}:start`);
        await tx.query('SELECT pg_sleep(0.05)');
        order.push(`${name}:end`);
      });
    await Promise.all([run('a'), run('b')]);
    expect(order.indexOf('a:end') < order.indexOf('b:start') || order.indexOf('b:end') < order.indexOf('a:start')).toBe(
      true,
    );
  });

  it('delivers NOTIFY payloads to LISTEN handlers', async () => {
    let deliver: (payload: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => (deliver = resolve));
    const unlisten = await db.listen('contract_channel', (payload) => deliver(payload));
    await db.notify('contract_channel', '{"hello":"world"}');
    expect(await received).toBe('{"hello":"world"}');
    await unlisten();
  });

  it('runs full-text search and trigram similarity (pg_trgm)', async () => {
    const [row] = await db.query<{ matches: boolean; sim: number }>(
      "SELECT to_tsvector('english', 'Return on ad spend dropped') @@ plainto_tsquery('english', 'spend') AS matches, similarity('roas', 'roaz') AS sim",
    );
    expect(row!.matches).toBe(true);
    expect(row!.sim).toBeGreaterThan(0.2);
  });

  // PGlite runs statements as named prepared statements with node-postgres's parameter
  // serialization (src/platform/db/pglite-statements.ts); these pin that both stores agree.
  it('serializes parameters the same way: dates, arrays, objects, bytes, booleans, nulls', async () => {
    const at = new Date('2026-03-29T01:30:00.000Z');
    const [row] = await db.query<{
      at: Date;
      tags: string[];
      doc: unknown;
      bytes: Buffer;
      flag: boolean;
      nothing: null;
      sum: number;
      hit: boolean;
    }>(
      `SELECT $1::timestamptz AS at, $2::text[] AS tags, $3::jsonb AS doc, $4::bytea AS bytes, $5::boolean AS flag,
              $6::text AS nothing, $7::int + $8::numeric AS sum, 'b' = ANY($2) AS hit`,
      [at, ['a', 'b, "c"', 'd\\e'], { k: [1, 'two', null] }, Buffer.from([0, 1, 2, 255]), false, null, 40, '2.5'],
    );
    expect(row!.at.toISOString()).toBe(at.toISOString());
    expect(row!.tags).toEqual(['a', 'b, "c"', 'd\\e']);
    expect(row!.doc).toEqual({ k: [1, 'two', null] });
    expect([...row!.bytes]).toEqual([0, 1, 2, 255]);
    expect(row!).toMatchObject({ flag: false, nothing: null, sum: 42.5, hit: false });
  });

  it('answers a repeated statement after the table it reads changes shape', async () => {
    await db.exec('CREATE TABLE contract_shape (id int PRIMARY KEY, a text)');
    await db.query("INSERT INTO contract_shape VALUES (1, 'x')");
    const read = () => db.query<Record<string, unknown>>('SELECT * FROM contract_shape WHERE id = $1', [1]);
    expect(await read()).toEqual([{ id: 1, a: 'x' }]);
    expect(await read()).toEqual([{ id: 1, a: 'x' }]);
    await db.exec("ALTER TABLE contract_shape ADD COLUMN b text DEFAULT 'y'");
    expect(await read()).toEqual([{ id: 1, a: 'x', b: 'y' }]);
  });

  it('keeps serving after failed statements: bad syntax, a bad value, a failed transaction', async () => {
    await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    const cast = 'SELECT $1::int AS n';
    await expect(db.query(cast, ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect(await db.query(cast, ['7'])).toEqual([{ n: 7 }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO contract_t (label) VALUES ('aborted')");
        await tx.query(cast, ['still not a number']);
      }),
    ).rejects.toMatchObject({ code: '22P02' });
    expect(await db.query("SELECT 1 FROM contract_t WHERE label = 'aborted'")).toEqual([]);
    expect(await db.query(cast, ['8'])).toEqual([{ n: 8 }]);
  });

  it('runs more distinct statements than any statement cache holds', async () => {
    for (let i = 0; i < 600; i++) {
      expect(await db.query<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1])).toEqual([{ n: i + 1 }]);
    }
    expect(await db.query<{ n: number }>('SELECT $1::int + 0 AS n', [5])).toEqual([{ n: 5 }]);
  });
});

describe('embedded store settings', () => {
  it("opens with the smaller buffer cache, whatever the data directory's postgresql.conf says", async () => {
    const test = await openTestDatabase('pglite');
    try {
      expect(await test.db.query('SHOW shared_buffers')).toEqual([{ shared_buffers: EMBEDDED_SHARED_BUFFERS }]);
    } finally {
      await test.drop();
    }
  });
});

describe('migration statement splitting', () => {
  it('keeps quoted semicolons, comments and dollar-quoted bodies intact', () => {
    const sql = `-- a comment; with a semicolon
CREATE TABLE a (x text DEFAULT ';');
/* block; comment */
CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
INSERT INTO a VALUES ('it''s; fine')`;
    expect(splitStatements(sql)).toEqual([
      "CREATE TABLE a (x text DEFAULT ';')",
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql',
      "INSERT INTO a VALUES ('it''s; fine')",
    ]);
  });
});
