import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { TICK_QUEUE } from '../../src/platform/jobs/scheduler.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';

const P = 'proj_driven';

/** In-process (self-hosted): SCHEDULER_ENABLED=true makes serve register the minute cron and work the ticks. */
describe.each(STORES)('serve with SCHEDULER_ENABLED [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock, env: { SCHEDULER_ENABLED: 'true' } });
    await createProject(service, P);
    expect(
      (
        await api(`${service.url}/api/credentials`, {
          method: 'POST',
          json: { project_id: P, provider: 'demo', connection_ref_id: 'demo', config: { campaigns: 3 } },
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => service?.close());

  it('registers the minute cron once, and a tick taken from the queue starts what is due', async () => {
    const schedules = await service.app.jobs.engine.getSchedules(TICK_QUEUE);
    expect(schedules.map((s) => [s.name, s.cron])).toEqual([[TICK_QUEUE, '* * * * *']]);
    const up = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'main',
          connection_ref_id: 'demo',
          provider: 'demo',
          cadence: '0 13 * * *',
          timezone: 'UTC',
          retrieval_window: { lookback_days: 2 },
        },
      },
    });
    expect(up.body.datastream.next_run_at).toBe('2026-05-18T13:00:00.000Z');
    clock.set('2026-05-18T13:00:30Z');
    // What the cron enqueues every minute; this process works the queue (SERVE_WORKERS defaults to true).
    await service.app.jobs.send(TICK_QUEUE, {});
    let runId: string | undefined;
    for (let i = 0; i < 3000 && !runId; i += 1) {
      const runs = await api(`${service.url}/api/flows/runs?project_id=${P}`);
      runId = (runs.body.runs as { id: string; trigger?: string }[])[0]?.id;
      if (!runId) await new Promise((r) => setTimeout(r, 50));
    }
    const run = await awaitRun(service, P, runId!);
    expect(run).toMatchObject({ status: 'succeeded', window: { from: '2026-05-17', to: '2026-05-18' } });
    const [ds] = await service.app.db.query<{ next_run_at: Date }>(
      'SELECT next_run_at FROM datastreams WHERE project_id = $1',
      [P],
    );
    expect(new Date(ds!.next_run_at).toISOString()).toBe('2026-05-19T13:00:00.000Z');
  });
});
