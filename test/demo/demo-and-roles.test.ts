import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { DEMO_INCIDENTS, addDays } from '../../src/modules/providers/index.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { connectModern } from '../support/mcp-clients.js';
import { awaitRun, type Run } from '../support/flows.js';

describe.each(STORES)('demo backfill and process roles [%s]', (store) => {
  let service: RunningService;
  // Within the bundled rate history, so USD/EUR/GBP all convert.
  const clock = new ManualClock('2026-04-13T15:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
  });
  afterAll(async () => service?.close());

  it('the demo project gets a demo connection and a daily datastream that backfills 120 days as a queued job', async () => {
    const seeded = await service.app.services.demo.run(service.app.systemContext());
    expect(seeded.seeded).toContain('datastreams');
    const flows = await api(`${service.url}/api/flows?project_id=proj_demo`);
    expect(flows.body.datastreams).toHaveLength(1);
    const ds = flows.body.datastreams[0];
    expect(ds).toMatchObject({
      provider: 'demo',
      connection_ref_id: 'demo',
      cadence: 'daily',
      schedule_source: 'datastream',
    });
    // Seeding only queued the backfill; it finishes on the jobs platform.
    const runs = await api(`${service.url}/api/flows/runs?project_id=proj_demo`);
    expect(runs.body.runs).toHaveLength(1);
    const run = await awaitRun(service, 'proj_demo', runs.body.runs[0].id);
    const today = '2026-04-13'; // America/New_York at 15:00Z
    expect(run).toMatchObject({
      status: 'succeeded',
      window: { from: addDays(today, -119), to: today },
      rows_read: 120 * 12,
    });
    const days = await service.app.db.query<{ n: number }>(
      "SELECT count(DISTINCT date) AS n FROM kpis_daily WHERE project_id = 'proj_demo'",
    );
    expect(Number(days[0]!.n)).toBe(120);
    // The injected incidents stand out against the same weekday a week earlier.
    for (const incident of DEMO_INCIDENTS) {
      const day = addDays(today, -incident.daysAgo);
      const metric = incident.metric === 'conversions' ? 'conversions' : incident.metric;
      const rows = await service.app.db.query<{ date: string; v: number }>(
        `SELECT date, ${metric} AS v FROM kpis_daily WHERE project_id = 'proj_demo' AND channel = $1 AND date IN ($2, $3) ORDER BY date`,
        [incident.channel, addDays(day, -7), day],
      );
      const ratio = Number(rows[1]!.v) / Number(rows[0]!.v);
      if (incident.factor > 1) expect(ratio).toBeGreaterThan(1.8);
      else expect(ratio).toBeLessThan(0.5);
    }
    // Seeding again queues nothing new.
    await service.app.services.demo.run(service.app.systemContext());
    expect((await api(`${service.url}/api/flows/runs?project_id=proj_demo`)).body.runs).toHaveLength(1);
  });
});

describe.each(STORES)('a run nobody can pick up [%s]', (store) => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(store, {
      env: { SERVE_WORKERS: 'false' },
      clock: new ManualClock('2026-04-13T15:00:00Z'),
    });
    await service.app.services.demo.run(service.app.systemContext());
  });
  afterAll(async () => service?.close());

  it('stays queued and says why, over REST and MCP', async () => {
    const runs = await api(`${service.url}/api/flows/runs?project_id=proj_demo`);
    const backfill = runs.body.runs[0] as Run;
    expect(backfill.status).toBe('queued');
    expect(backfill.waiting_reason).toMatch(/SERVE_WORKERS=false.*context-hub worker/);
    const client = await connectModern(service.url);
    const result = await client.callTool({ name: 'run_datastream', arguments: { datastream: 'Demo ad platform' } });
    expect(result.isError).toBeFalsy();
    const run = (result.structuredContent as { data: { run: Run } }).data.run;
    expect(run.status).toBe('queued');
    expect((result.content as { text: string }[])[0]!.text).toContain('Waiting: no process works the datastream queue');
    await client.close();
    // Still queued: nothing here works the queue.
    const again = await api(`${service.url}/api/flows/runs?project_id=proj_demo`);
    expect(again.body.runs.map((r: Run) => r.status)).toEqual(['queued', 'queued']);
  });
});
