import type { RequestContext } from '../../platform/context/request-context.js';
import type { CredentialsService } from '../credentials/index.js';
import { addDays, dayInZone } from '../providers/index.js';
import type { ProjectsService } from '../projects/index.js';
import type { FlowsService } from '../flows/index.js';

export const DEMO_CONNECTION = 'demo';
export const DEMO_DATASTREAM = 'Demo ad platform';
export const DEMO_BACKFILL_DAYS = 120;

/**
 * The demo project's data side: a `demo` connection and a daily datastream whose first run
 * backfills 120 days. The run is queued, never awaited, so start-up does not wait for it.
 * Idempotent: a second seeding queues nothing once the datastream has any run.
 */
export function datastreamsDemoSeeder(deps: {
  credentials: CredentialsService;
  flows: FlowsService;
  projects: ProjectsService;
}) {
  return async (ctx: RequestContext, projectId: string): Promise<void> => {
    if (!(await deps.credentials.find(projectId, DEMO_CONNECTION))) {
      await deps.credentials.upsert(ctx, {
        project_id: projectId,
        provider: 'demo',
        connection_ref_id: DEMO_CONNECTION,
        config: { campaigns: 12, seed: 42 },
      });
    }
    const project = await deps.projects.findRow(projectId);
    const today = dayInZone(ctx.clock.now(), project!.timezone);
    const result = await deps.flows.upsert(ctx, {
      project_id: projectId,
      kind: 'datastream',
      definition: {
        name: DEMO_DATASTREAM,
        connection_ref_id: DEMO_CONNECTION,
        provider: 'demo',
        cadence: 'daily',
        retrieval_window: { lookback_days: 7, start_date: addDays(today, -(DEMO_BACKFILL_DAYS - 1)) },
      },
    });
    if (result.kind !== 'datastream') return;
    if (await deps.flows.hasAnyRun(result.datastream.id)) return;
    await deps.flows.runNow(ctx, result.datastream.id, undefined, 'demo_backfill');
  };
}
