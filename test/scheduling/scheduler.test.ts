import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';

const P = 'proj_sched';
const HALF_HOUR = 30 * 60_000;

const localDay = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
const localTime = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);

function dayRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

describe.each(STORES)('scheduling with an injected clock [%s]', (store) => {
  let service: RunningService;
  // Starts after the bundled FX snapshot's last day (the money module refuses a snapshot from the
  // future), then goes back.
  const clock = new ManualClock('2026-11-20T00:00:00Z');
  const ids: Record<string, string> = {};

  const upsert = async (name: string, extra: Record<string, unknown>) => {
    const res = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name,
          connection_ref_id: 'demo',
          provider: 'demo',
          retrieval_window: { lookback_days: 3 },
          ...extra,
        },
      },
    });
    expect(res.status).toBe(200);
    ids[name] = res.body.datastream.id;
  };
  /** Every hour from the clock's time up to `to`, as the minute cron would (coarser, same logic). */
  const tickUntil = async (to: string, onTick?: (now: Date) => Promise<void>) => {
    while (clock.now() < new Date(to)) {
      clock.advance(2 * HALF_HOUR);
      await service.app.services.evaluators.plan.tick(clock.now());
      await onTick?.(clock.now());
    }
  };
  const firings = async (name: string) =>
    (
      await service.app.db.query<{ due_at: Date; run_id: string | null }>(
        `SELECT due_at, run_id FROM schedule_firings WHERE target = $1 ORDER BY due_at`,
        [`datastream:${ids[name]}`],
      )
    ).map((r) => ({
      due: new Date(r.due_at),
      run_id: r.run_id,
    }));
  const perDay = (list: { due: Date }[], zone: string) => {
    const counts = new Map<string, number>();
    for (const f of list) counts.set(localDay(f.due, zone), (counts.get(localDay(f.due, zone)) ?? 0) + 1);
    return counts;
  };

  beforeAll(async () => {
    // No process works the queues here: the test is about what gets queued, exactly once.
    service = await startService(store, {
      clock,
      env: { SERVE_WORKERS: 'false', SCHEDULER_NIGHTLY_HOUR: '2', SCHEDULER_TIMEZONE: 'America/New_York' },
    });
    clock.set('2026-03-01T00:00:00Z');
    await createProject(service, P, 'USD', 'Europe/Berlin');
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'demo', connection_ref_id: 'demo', config: {} },
    });
    expect(conn.status).toBe(200);
    await upsert('berlin', { cadence: '30 2 * * *', timezone: 'Europe/Berlin' });
    await upsert('newyork', { cadence: '30 1 * * *', timezone: 'America/New_York' });
    // No cadence: SCHEDULER_NIGHTLY_HOUR (2) in SCHEDULER_TIMEZONE (New York), an hour that does not exist on 8 March.
    await upsert('fallback', {});
  });
  afterAll(async () => service?.close());

  it('runs each daily schedule once per local day across spring-forward, and an edit reschedules at once', async () => {
    await tickUntil('2026-03-20T00:00:00Z');
    // Edit New York's schedule mid-month: the next run is the new time, not the old one.
    await upsert('newyork', { cadence: '0 6 * * *', timezone: 'America/New_York' });
    await tickUntil('2026-04-01T00:00:00Z');
    const expectations: [string, string, string][] = [
      ['berlin', 'Europe/Berlin', '2026-03-01'],
      ['newyork', 'America/New_York', '2026-03-01'],
      ['fallback', 'America/New_York', '2026-03-01'],
    ];
    for (const [name, zone, first] of expectations) {
      const list = await firings(name);
      const counts = perDay(list, zone);
      const days = [...counts.keys()];
      expect(days[0], name).toBe(first);
      expect(days[days.length - 1]! >= '2026-03-31', name).toBe(true);
      expect(days, name).toEqual(dayRange(first, days[days.length - 1]!));
      expect(
        [...counts.values()].every((n) => n === 1),
        name,
      ).toBe(true);
      for (const f of list) expect(f.run_id, name).toMatch(/^run_/);
    }
    const berlin = await firings('berlin');
    expect(berlin.map((f) => localTime(f.due, 'Europe/Berlin'))).toContain('03:30'); // 29 March: 02:30 does not exist
    const ny = await firings('newyork');
    const times = ny.map((f) => `${localDay(f.due, 'America/New_York')} ${localTime(f.due, 'America/New_York')}`);
    expect(times.filter((t) => t < '2026-03-19 99')).toEqual(times.filter((t) => t.endsWith('01:30')));
    expect(times.filter((t) => t > '2026-03-20')).toEqual(times.filter((t) => t.endsWith('06:00')));
    const runs = await service.app.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM datastream_runs WHERE project_id = $1 AND trigger = 'schedule'`,
      [P],
    );
    expect(Number(runs[0]!.n)).toBe(berlin.length + ny.length + (await firings('fallback')).length);
  });

  it('neither skips nor doubles across fall-back; missed slots while nobody ticked coalesce into one run', async () => {
    clock.set('2026-10-20T00:00:00Z');
    await tickUntil('2026-11-10T00:00:00Z');
    for (const [name, zone] of [
      ['berlin', 'Europe/Berlin'],
      ['newyork', 'America/New_York'],
      ['fallback', 'America/New_York'],
    ] as const) {
      const list = (await firings(name)).filter((f) => f.due > new Date('2026-04-01T00:00:00Z'));
      // The first tick after the gap fires the one overdue slot; then one per local day.
      const gap = list.filter((f) => f.due < new Date('2026-10-20T00:00:00Z'));
      expect(gap.length, name).toBe(1);
      const counts = perDay(
        list.filter((f) => f.due >= new Date('2026-10-20T00:00:00Z')),
        zone,
      );
      const days = [...counts.keys()];
      expect(days, name).toEqual(dayRange(days[0]!, days[days.length - 1]!));
      expect(days[0]! <= '2026-10-21' && days[days.length - 1]! >= '2026-11-08', name).toBe(true);
      expect(
        [...counts.values()].every((n) => n === 1),
        name,
      ).toBe(true);
      expect(days).toContain(name === 'berlin' ? '2026-10-25' : '2026-11-01');
    }
  });

  it('claims a slot once when several processes tick at the same moment', async () => {
    await upsert('burst', { cadence: '0 * * * *', timezone: 'UTC' });
    const plan = service.app.services.evaluators.plan;
    for (let i = 0; i < 6; i += 1) {
      clock.advance(HALF_HOUR);
      await Promise.all([plan.tick(clock.now()), plan.tick(clock.now()), plan.tick(clock.now())]);
    }
    const list = await firings('burst');
    expect(list.length).toBe(3);
    expect(new Set(list.map((f) => f.run_id)).size).toBe(3);
  });

  it('composes the daily insight and queues the FX refresh once per day', async () => {
    const slots = await service.app.db.query<{ target: string; n: number }>(
      `SELECT target, count(*) AS n FROM schedule_firings WHERE target IN ('insight:${P}', 'fx:refresh') AND due_at >= '2026-10-21T00:00:00Z' AND due_at < '2026-11-08T00:00:00Z' GROUP BY target ORDER BY target`,
    );
    expect(slots.map((s) => [s.target, Number(s.n)])).toEqual([
      // 21 Oct 00:00Z up to 8 Nov 00:00Z: New York 02:00 (fx) and Berlin 02:00 (insight), 25 October's
      // repeated hour once.
      ['fx:refresh', 18],
      [`insight:${P}`, 18],
    ]);
  });
});
