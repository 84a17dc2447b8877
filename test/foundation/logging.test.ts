import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

function capture(): { lines: string[]; log: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, log: createLogger({ level: 'info', destination }) };
}

describe.each(STORES)('an error in a log line [%s]', (store) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(store);
  });
  afterAll(async () => db?.drop());

  it('keeps the class, message and SQLSTATE of a store error; no stack, SQL text or driver detail', async () => {
    const { lines, log } = capture();
    // A statement whose text is recognisable if any of it were logged.
    const error = await db.db.query("SELECT 1 / 0 AS secret_column_name WHERE 'literal-value' <> ''").catch((e: unknown) => e);
    log.error({ err: error }, 'request failed');
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({ message: 'division by zero', code: '22012' });
    expect(Object.keys(line.err).sort()).toEqual(expect.arrayContaining(['code', 'message', 'type']));
    expect(lines[0]!.trimEnd()).not.toMatch(/\n|\\n\s*at |stack|secret_column_name|literal-value|routine|internalQuery/);
  });
});

describe('errors of our own code in a log line', () => {
  it('name the one frame of the service they came from, not the stack', () => {
    const { lines, log } = capture();
    let thrown: unknown;
    try {
      quoteIdent('Not An Identifier');
    } catch (error) {
      thrown = error;
    }
    log.error({ err: thrown }, 'failed');
    const line = JSON.parse(lines[0]!) as { err: { type: string; message: string; origin: string } };
    expect(line.err.type).toBe('Error');
    expect(line.err.origin).toMatch(/^src\/platform\/db\/database\.ts:\d+$/);
    expect(lines[0]).not.toMatch(/\\n\s*at /);
  });

  it('keep what a caller already reduced an error to', () => {
    const { lines, log } = capture();
    log.warn({ err: { message: 'feed unreachable', code: 'ECONNREFUSED', stack: 'Error\n    at x (y.js:1:1)' } }, 'failed');
    expect(JSON.parse(lines[0]!).err).toEqual({ message: 'feed unreachable', code: 'ECONNREFUSED' });
  });
});
