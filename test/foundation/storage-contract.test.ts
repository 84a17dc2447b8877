import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/database.js';
import { migrate, pendingMigrations, splitStatements } from '../../src/platform/db/migrate.js';
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
    const id = await db.transaction(async (tx) => (await tx.query<{ id: number }>("INSERT INTO contract_t (label) VALUES ('kept') RETURNING id"))[0]!.id);
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
    expect(order.indexOf('a:end') < order.indexOf('b:start') || order.indexOf('b:end') < order.indexOf('a:start')).toBe(true);
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
