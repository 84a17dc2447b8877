import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_RANGE_SQL, STORED_FROM_SQL, effective } from '../../src/modules/anomalies/index.js';
import { evaluateRecorded } from '../support/evaluations.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_through';
const DATES = days('2026-01-01', 61);
const CHANNELS = ['search', 'social'];

/**
 * The evaluation deletes the stored rows of its range only where an earlier evaluation of the
 * project reached it (anomaly_evaluated_through, migration 0041): a new day's evaluation has
 * nothing to replace and skips the DELETE, which the primary key cannot bound by date; a range
 * that overlaps what is stored is replaced whole.
 */
describe.each(STORES)('the last evaluated day bounds the range delete [%s]', (store) => {
  let service: RunningService;
  const settings = effective({});

  /** Evaluates [from, to] of P in one transaction; returns the statements it issued. */
  const run = (from: string, to: string) => evaluateRecorded(service, P, from, to, settings);
  const through = async () =>
    (
      await service.app.db.query<{ through: string }>(
        'SELECT through FROM anomaly_evaluated_through WHERE project_id = $1',
        [P],
      )
    )[0]?.through;
  const rowsOn = async (date: string) =>
    service.app.db.query<{ channel: string; metric: string; value: number }>(
      `SELECT channel, metric, value FROM anomalies_daily WHERE project_id = $1 AND date = $2 AND metric = 'spend'
       ORDER BY channel COLLATE "C"`,
      [P, date],
    );

  beforeAll(async () => {
    service = await startService(store);
    await createProject(service, P);
    await writeKpis(
      service,
      P,
      DATES.slice(0, 60).flatMap((date, i) => CHANNELS.map((channel) => ({ date, channel, spend: 100 + (i % 7) }))),
    );
  });
  afterAll(async () => service?.close());

  it('a first evaluation records how far it reached; a new day then deletes nothing and says so', async () => {
    expect(await through()).toBeUndefined();
    const first = await run(DATES[0]!, DATES[59]!);
    // Nothing was ever evaluated: there is nothing to delete.
    expect(first).toContain(STORED_FROM_SQL);
    expect(first).not.toContain(DELETE_RANGE_SQL);
    expect(await through()).toBe(DATES[59]);

    await writeKpis(
      service,
      P,
      CHANNELS.map((channel) => ({ date: DATES[60]!, channel, spend: 104 })),
    );
    const next = await run(DATES[60]!, DATES[60]!);
    expect(next).not.toContain(DELETE_RANGE_SQL);
    expect(await through()).toBe(DATES[60]);
    expect((await rowsOn(DATES[60]!)).map((r) => r.value)).toEqual([208, 104, 104]);
  });

  it('a range that overlaps stored days replaces them, and an earlier range never moves the mark back', async () => {
    const count = async () =>
      (
        await service.app.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM anomalies_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3',
          [P, DATES[40], DATES[60]],
        )
      )[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(21 * 3);
    await writeKpis(
      service,
      P,
      CHANNELS.map((channel) => ({ date: DATES[40]!, channel, spend: 900 })),
    );
    // Without the DELETE, the insert of rows already stored would fail on the primary key.
    const again = await run(DATES[40]!, DATES[60]!);
    expect(again).toContain(DELETE_RANGE_SQL);
    expect((await rowsOn(DATES[40]!)).map((r) => r.value)).toEqual([1800, 900, 900]);
    expect(await count()).toBe(before);

    await run(DATES[10]!, DATES[20]!);
    expect(await through()).toBe(DATES[60]);
  });
});
