import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlExecutor } from '../../src/platform/db/database.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_explain_events';
const DATES = days('2026-03-01', 40);
/** The anomaly's days: ten of them, so a read per day would be ten reads. */
const FIRST = '2026-03-25';
const LAST = '2026-04-03';

/** Events around the anomaly's days: which of them were active on one of those days is by hand. */
const EVENTS = [
  { title: 'Over before', event_date: '2026-03-10', impact_window_days: 3, active: false },
  { title: 'Long sale', event_date: '2026-03-01', end_date: '2026-04-20', impact_window_days: 0, active: true },
  { title: 'Window reaches the first day', event_date: '2026-03-20', impact_window_days: 5, active: true },
  { title: 'Mid-episode', event_date: '2026-03-29', impact_window_days: 0, active: true },
  { title: 'On the last day', event_date: LAST, impact_window_days: 0, active: true },
  { title: 'After the last day', event_date: '2026-04-04', impact_window_days: 7, active: false },
];

describe.each(STORES)('explain_anomaly over KPIs written without campaign rows [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'USD', 'UTC');
    await writeKpis(
      service,
      P,
      DATES.map((date) => ({ date, channel: 'A', spend: date >= FIRST && date <= LAST ? 300 : 100, revenue: 200 })),
    );
    for (const { active: _, ...event } of EVENTS) {
      const res = await api(`${service.url}/api/context/events`, {
        method: 'POST',
        json: { project_id: P, event_type: 'promotion', ...event },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => service?.close());

  it('lists each event active on one of the days once, oldest first, from one query for all of them', async () => {
    // Count the statements that read context_events while the explanation is worked out.
    const db = service.app.db as SqlExecutor;
    const query = db.query.bind(db);
    const reads: string[] = [];
    db.query = ((text: string, params?: unknown[]) => {
      if (/FROM context_events/.test(text)) reads.push(text);
      return query(text, params);
    }) as SqlExecutor['query'];
    let e: Awaited<ReturnType<typeof service.app.services.evaluators.explain.explainSeries>>;
    try {
      e = await service.app.services.evaluators.explain.explainSeries(service.app.systemContext(), P, {
        metric: 'spend',
        channel: '_total',
        first_date: FIRST,
        last_date: LAST,
      });
    } finally {
      db.query = query;
    }
    expect(reads).toHaveLength(1);
    expect(e.context_events.map((x) => x.title)).toEqual(EVENTS.filter((x) => x.active).map((x) => x.title));
    // The same answer as asking day by day (what activeOn tells the insight composer for each day).
    const byDay = new Map<string, string>();
    for (const day of days(FIRST, 10))
      for (const x of await service.app.services.contextEvents.activeOn(P, day)) byDay.set(x.id, x.event_date);
    expect(e.context_events.map((x) => x.id).sort()).toEqual([...byDay.keys()].sort());
    expect(e.context_events.map((x) => x.event_date)).toEqual(e.context_events.map((x) => x.event_date).sort());
    expect(e.context_events[1]).toMatchObject({ title: 'Window reaches the first day', active_until: '2026-03-25' });
  });

  it('says a channel has no campaign rows to split, instead of a change from 0 to 0', async () => {
    const e = await service.app.services.evaluators.explain.explainSeries(service.app.systemContext(), P, {
      metric: 'spend',
      channel: 'A',
      first_date: FIRST,
      last_date: LAST,
    });
    expect(e.periods.current.days_with_data).toBe(10);
    expect(e.decomposition).toMatchObject({
      breakdown: 'campaign',
      current_value: null,
      baseline_value: null,
      change: null,
      parts: [],
      unavailable: 'no campaign rows for these days (ad_performance_daily)',
    });
  });
});
