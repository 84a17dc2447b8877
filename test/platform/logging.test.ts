import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { logCapture } from '../support/log-capture.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

/** A logger as the service builds it, writing into a capture: its first line, raw and parsed. */
function capture(): { log: ReturnType<typeof createLogger>; first(): { raw: string; err: Record<string, unknown> } } {
  const logs = logCapture();
  return {
    log: createLogger({ level: 'info', destination: logs.destination }),
    first: () => ({ raw: logs.text().split('\n')[0]!, err: logs.lines[0]!.err as Record<string, unknown> }),
  };
}

describe.each(STORES)('an error in a log line [%s]', (store) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(store);
  });
  afterAll(async () => db?.drop());

  it('keeps the class, message and SQLSTATE of a store error; no stack, SQL text or driver detail', async () => {
    const { first, log } = capture();
    // A statement whose text is recognisable if any of it were logged.
    const error = await db.db
      .query("SELECT 1 / 0 AS secret_column_name WHERE 'literal-value' <> ''")
      .catch((e: unknown) => e);
    log.error({ err: error }, 'request failed');
    const line = first();
    expect(line.err).toMatchObject({ message: 'division by zero', code: '22012' });
    expect(Object.keys(line.err).sort()).toEqual(expect.arrayContaining(['code', 'message', 'type']));
    expect(line.raw).not.toMatch(/\n|\\n\s*at |stack|secret_column_name|literal-value|routine|internalQuery/);
  });
});

describe('errors of our own code in a log line', () => {
  it('name the one frame of the service they came from, not the stack', () => {
    const { first, log } = capture();
    let thrown: unknown;
    try {
      quoteIdent('Not An Identifier');
    } catch (error) {
      thrown = error;
    }
    log.error({ err: thrown }, 'failed');
    const line = first();
    expect(line.err.type).toBe('Error');
    expect(line.err.origin).toMatch(/^src\/platform\/db\/database\.ts:\d+$/);
    expect(line.raw).not.toMatch(/\\n\s*at /);
  });

  it('keep what a caller already reduced an error to', () => {
    const { first, log } = capture();
    log.warn(
      { err: { message: 'feed unreachable', code: 'ECONNREFUSED', stack: 'Error\n    at x (y.js:1:1)' } },
      'failed',
    );
    expect(first().err).toEqual({ message: 'feed unreachable', code: 'ECONNREFUSED' });
  });
});
