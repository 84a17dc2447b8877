import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effective, QUIET_DAYS_SQL } from '../../src/modules/anomalies/index.js';
import { evaluateRecorded } from '../support/evaluations.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_saved_quiet';
const DATES = days('2026-01-01', 90);
/** The day a sustained move of three days fires (docs/api.md, step 7a), none of its days alone. */
const FIRES = 72;

type Row = Record<string, unknown>;

/**
 * A one-day evaluation starts from the quiet days the evaluation of the day before saved with its
 * precedent deques (migration 0042), instead of reading them back per series from the stored rows
 * (QUIET_DAYS_SQL); a saved row without them (saved before the migration) or for other
 * sustained_days is read back. Either way the rows are those of one full pass.
 */
describe.each(STORES)('a new day starts from the saved quiet days [%s]', (store) => {
  let service: RunningService;
  // Three days: the list a day starts from holds two, so its order and days matter.
  const settings = effective({ sustained_days: 3 });
  let full: Row[];

  /** Evaluates [from, to] of P in one transaction; returns the statements it issued. */
  const run = (from: string, to: string) => evaluateRecorded(service, P, from, to, settings);
  const rows = () =>
    service.app.db.query<Row>(
      'SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY channel COLLATE "C", metric COLLATE "C", date',
      [P],
    );
  const spendOn = async (i: number) =>
    (await rows()).find((r) => r.channel === 'search' && r.metric === 'spend' && r.date === DATES[i])!;
  const saved = (i: number, set: string) =>
    service.app.db.query(
      `UPDATE anomaly_precedent_state SET ${set} WHERE project_id = $1 AND channel = 'search' AND metric = 'spend' AND as_of = $2`,
      [P, DATES[i]],
    );

  beforeAll(async () => {
    service = await startService(store);
    await createProject(service, P);
    // Noise of ±5 around 100, then three days a little higher each, back to the noise.
    await writeKpis(
      service,
      P,
      DATES.map((date, i) => ({
        date,
        channel: 'search',
        spend: i >= FIRES - 2 && i <= FIRES ? [105, 106.5, 108.6][i - FIRES + 2]! : 100 + (((i * 37) % 11) - 5),
      })),
    );
    await run(DATES[0]!, DATES[89]!);
    full = await rows();
  });
  afterAll(async () => service?.close());

  it('the series is built to need the two quiet days before the day that fires', async () => {
    const [a, b, c] = [FIRES - 2, FIRES - 1, FIRES].map(
      (i) => full.find((r) => r.channel === 'search' && r.metric === 'spend' && r.date === DATES[i])!,
    );
    expect([a!.status, b!.status, c!.status, c!.fired]).toEqual(['ok', 'ok', 'fired', true]);
    const z = [a!.z, b!.z, c!.z].map(Number);
    const t = settings.threshold;
    // Each day short of the threshold, the last two too; all three past it (Σz/√k).
    expect(z.every((x) => x > 0 && x < t)).toBe(true);
    expect((z[1]! + z[2]!) / Math.SQRT2).toBeLessThan(t);
    expect((z[0]! + z[1]! + z[2]!) / Math.sqrt(3)).toBeGreaterThan(t);
  });

  it('one day at a time takes the saved quiet days, reads none back, and gives the full pass', async () => {
    await run(DATES[0]!, DATES[FIRES - 3]!);
    for (let i = FIRES - 2; i < 90; i += 1) {
      const issued = await run(DATES[i]!, DATES[i]!);
      expect([DATES[i], issued.includes(QUIET_DAYS_SQL)]).toEqual([DATES[i], false]);
    }
    expect(await rows()).toEqual(full);
    // What the day that fired started from: the z of the two days before it, as stored.
    await run(DATES[0]!, DATES[FIRES - 1]!);
    const [state] = await service.app.db.query<{ sustained_days: number; quiet_z: number[] }>(
      `SELECT sustained_days, quiet_z FROM anomaly_precedent_state
       WHERE project_id = $1 AND channel = 'search' AND metric = 'spend' AND as_of = $2`,
      [P, DATES[FIRES - 1]],
    );
    expect(state!.sustained_days).toBe(3);
    expect(state!.quiet_z.map(Number)).toEqual([
      Number((await spendOn(FIRES - 2)).z),
      Number((await spendOn(FIRES - 1)).z),
    ]);
  });

  it('what it starts from decides: with no quiet days saved, the day does not fire', async () => {
    await run(DATES[0]!, DATES[FIRES - 1]!);
    await saved(FIRES - 1, "quiet_z = '{}'");
    await run(DATES[FIRES]!, DATES[FIRES]!);
    expect((await spendOn(FIRES)).fired).toBe(false);
    await run(DATES[0]!, DATES[89]!);
    expect(await rows()).toEqual(full);
  });

  it.each([
    ['saved before the quiet days were', 'quiet_z = NULL, sustained_days = NULL'],
    ['saved for other sustained_days', 'sustained_days = 2'],
  ])('a day whose state was %s reads them back, with the same rows', async (_, set) => {
    await run(DATES[0]!, DATES[FIRES - 1]!);
    await saved(FIRES - 1, set);
    expect(await run(DATES[FIRES]!, DATES[89]!)).toContain(QUIET_DAYS_SQL);
    expect(await rows()).toEqual(full);
  });
});
