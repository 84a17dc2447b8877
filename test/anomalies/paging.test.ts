import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis, type KpiPoint } from '../support/kpis.js';

// Paging the anomaly list. Before: GET /api/anomalies stopped at `limit` rows (at most 500) without saying
// so, had no next_cursor and no end date; get_anomalies was fixed at 200; and a baseline flat at
// zero fired on any non-zero value (one cent of spend).

const P = 'proj_pages';
const DATES = days('2026-03-01', 60);
const CHANNELS = Array.from({ length: 12 }, (_, c) => `ch${String(c).padStart(2, '0')}`);

type Anomaly = { date: string; metric: string; channel: string; value: number; min_abs_change: number };
const keyOf = (a: Anomaly) => `${a.date}/${a.metric}/${a.channel}`;

describe.each(STORES)('anomaly lists page; flat-zero baselines have a floor [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-01T12:00:00Z');
  const list = (query: string) => api(`${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}${query}`);

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P);
    // Each channel is flat at 50 and jumps to 80 on a day of its own (two channels share a day, so
    // one date holds several rows and the within-day order matters to the cursor).
    const points: KpiPoint[] = DATES.flatMap((date, i) => [
      ...CHANNELS.map((channel, c) => ({ date, channel, spend: i === 30 + Math.floor(c / 2) * 3 ? 80 : 50 })),
      // Flat at zero, then a few cents: no relative change exists; below the default floor of 1.
      { date, channel: 'cents', spend: i === 50 ? 0.5 : 0 },
      // Flat at zero, then a real amount: above the floor.
      { date, channel: 'launch', spend: i === 52 ? 40 : 0 },
    ]);
    await writeKpis(service, P, points);
    const evaluated = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(evaluated.status).toBe(200);
  });
  afterAll(async () => service?.close());

  it('GET /api/anomalies answers next_cursor and pages through everything once, in a stable order', async () => {
    const all = await list('&limit=500');
    expect(all.status).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    const everything = all.body.anomalies as Anomaly[];
    expect(everything.length).toBeGreaterThan(12);

    const seen: Anomaly[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.anomalies.length).toBeLessThanOrEqual(5);
      seen.push(...page.body.anomalies);
      cursor = page.body.next_cursor;
      pages += 1;
      expect(pages).toBeLessThan(50);
    } while (cursor);
    expect(seen.map(keyOf)).toEqual(everything.map(keyOf));
    expect(new Set(seen.map(keyOf)).size).toBe(seen.length);

    // A page that fills exactly still says whether more follow.
    const exact = await list(`&limit=${everything.length}`);
    expect(exact.body.next_cursor).toBeNull();
    const short = await list(`&limit=${everything.length - 1}`);
    expect(short.body.next_cursor).toEqual(expect.any(String));
  });

  it('to bounds the end date, and cursors follow the same filters', async () => {
    const to = DATES[35]!;
    const res = await list(`&to=${to}&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.to).toBe(to);
    const dates = new Set<string>();
    let page = res;
    for (;;) {
      for (const a of page.body.anomalies as Anomaly[]) dates.add(a.date);
      if (!page.body.next_cursor) break;
      page = await list(`&to=${to}&limit=2&cursor=${page.body.next_cursor}`);
    }
    expect([...dates].every((d) => d <= to)).toBe(true);
    expect(dates.has(DATES[30]!)).toBe(true);
    expect(dates.has(DATES[39]!)).toBe(false);

    const backwards = await list(`&to=${DATES[0]}&since=${DATES[5]}`);
    expect(backwards.status).toBe(400);
    const forged = await list('&cursor=bm90LWEtY3Vyc29y');
    expect(forged.status).toBe(400);
    expect(forged.body.errors[0].path).toBe('cursor');
  });

  it('get_anomalies takes limit and cursor, and says when it cuts and how to get the rest', async () => {
    const everything = (await list('&limit=500')).body.anomalies as Anomaly[];
    const client = await connectModern(service.url);
    try {
      const seen: Anomaly[] = [];
      let cursor: string | undefined;
      for (let calls = 0; calls < 50; calls += 1) {
        const result = (await client.callTool({
          name: 'get_anomalies',
          arguments: { project_id: P, since: DATES[0], limit: 4, ...(cursor ? { cursor } : {}) },
        })) as {
          isError?: boolean;
          content: { text: string }[];
          structuredContent: { data: Record<string, unknown> };
        };
        expect(result.isError).toBeFalsy();
        const data = result.structuredContent.data;
        seen.push(...(data.anomalies as Anomaly[]));
        if (data.next_cursor === null) {
          expect(data.truncated).toBe(false);
          break;
        }
        expect(data.truncated).toBe(true);
        expect(result.content[0]!.text).toContain('there are more');
        expect(result.content[0]!.text).toContain(`cursor "${data.next_cursor}"`);
        cursor = data.next_cursor as string;
      }
      expect(seen.map(keyOf)).toEqual(everything.map(keyOf));

      const tooMany = (await client.callTool({
        name: 'get_anomalies',
        arguments: { project_id: P, limit: 201 },
      })) as { isError?: boolean };
      expect(tooMany.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('a baseline flat at zero fires only past the absolute floor, which min_abs_change sets', async () => {
    const spendOn = async (channel: string) =>
      ((await list(`&metric=spend&channel=${channel}&limit=500`)).body.anomalies as Anomaly[]).map((a) => a.date);
    expect(await spendOn('cents')).toEqual([]);
    expect(await spendOn('launch')).toEqual([DATES[52]]);
    const launch = (await list(`&metric=spend&channel=launch`)).body.anomalies[0];
    expect(launch).toMatchObject({ baseline_mean: 0, relative_change: null, min_abs_change: 1 });

    const settings = await api(`${service.url}/api/anomalies/settings?project_id=${P}`);
    expect(settings.body.effective.min_abs_change).toBeNull();
    expect(settings.body.effective.metrics.find((m: { metric: string }) => m.metric === 'spend')).toMatchObject({
      min_abs_change: 1,
    });

    const put = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { min_abs_change: 0.25, metrics: { impressions: { min_abs_change: 5000 } } },
    });
    expect(put.status).toBe(200);
    expect(put.body.effective.min_abs_change).toBe(0.25);
    const rules = new Map(
      (put.body.effective.metrics as { metric: string; min_abs_change: number }[]).map((m) => [m.metric, m]),
    );
    expect(rules.get('spend')!.min_abs_change).toBe(0.25);
    expect(rules.get('impressions')!.min_abs_change).toBe(5000);
    await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(await spendOn('cents')).toEqual([DATES[50]]);

    const negative = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { min_abs_change: -1 },
    });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0].path).toBe('body.min_abs_change');
    await api(`${service.url}/api/anomalies/settings?project_id=${P}`, { method: 'PUT', json: {} });
  });
});
