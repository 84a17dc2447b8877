import { z } from 'zod';
import type { ResourceSpec } from '../../mcp/kit/registry.js';
import { ADDITIVE_WRITE, defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ProjectsService } from '../projects/index.js';
import { presentDatastream, presentRun } from './flows.presenter.js';
import {
  DatastreamOutput,
  GetRunStatusToolInput,
  ListDatastreamsToolInput,
  RunDatastreamToolInput,
  RunOutput,
} from './flows.schemas.js';
import type { FlowsService, RunStarter } from './flows.service.js';

export function flowTools(flows: FlowsService, ingestion: RunStarter) {
  return [
    defineTool({
      name: 'list_datastreams',
      title: 'List datastreams',
      description:
        "Lists a project's datastreams (its data sources) with their schedules; pass an id or name to run_datastream.",
      input: ListDatastreamsToolInput,
      view: 'datastreams',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: { datastreams: z.array(DatastreamOutput) },
      run: async (ctx, input) => {
        const { project, resolvedFrom, datastreams } = await flows.listDatastreams(ctx, input.project_id);
        const now = ctx.clock.now();
        const items = datastreams.map((d) => presentDatastream(d, flows.schedule(d, now)));
        return {
          kind: 'enveloped',
          summary: [
            `${items.length} datastream${items.length === 1 ? '' : 's'} in ${project.id}.`,
            ...items
              .slice(0, 25)
              .map(
                (d) =>
                  `- ${d.id} "${d.name}" (${d.provider}, ${d.cadence ?? 'nightly default'}; next run ${d.next_run_at ?? 'manual only'})`,
              ),
          ],
          projectId: project.id,
          provenance: { source: 'datastreams', project_resolved_from: resolvedFrom },
          data: { datastreams: items },
        };
      },
    }),
    defineTool({
      name: 'run_datastream',
      title: 'Run a datastream now',
      description: "Fetches a datastream's data now and rebuilds its KPIs. Use it when data is missing or stale.",
      input: RunDatastreamToolInput,
      view: 'datastreams',
      permission: 'context.write',
      annotations: { ...ADDITIVE_WRITE, openWorldHint: true },
      dataShape: { run: RunOutput },
      run: async (ctx, input) => {
        const queued = await flows.runNow(ctx, input.datastream, input.project_id);
        let run = queued;
        if (input.wait && !queued.waiting_reason) {
          await ctx.progress(0, undefined, `run ${queued.id} queued`);
          let step = 0;
          run = await ingestion.waitForRun(
            queued.id,
            async (r) => {
              step += 1;
              const detail =
                r.status === 'running'
                  ? `${r.rows_read} rows read`
                  : r.status === 'failed'
                    ? `attempt ${r.attempts} failed: ${r.error ?? ''}; retrying`
                    : r.status;
              await ctx.progress(step, undefined, `run ${r.id}: ${detail}`);
            },
            ctx.signal,
          );
        }
        const out = presentRun(run);
        const lines = [
          `Run ${out.id} of datastream ${out.datastream_id}: ${out.status} (window ${out.window.from}..${out.window.to}).`,
        ];
        if (out.status === 'succeeded')
          lines.push(
            `${out.rows_read} rows read, ${out.rows_written} rows written to the models` +
              (out.source_wait_ms ? `; ${out.source_wait_ms} ms waiting on the source (rate limits).` : '.'),
          );
        if (out.waiting_reason) lines.push(`Waiting: ${out.waiting_reason}`);
        if (out.error) lines.push(`Error: ${out.error}${out.retries_exhausted ? ' (retries exhausted)' : ''}`);
        if (out.status === 'queued' || out.status === 'running')
          lines.push('Check it later with GET /api/flows/runs?project_id=… .');
        return {
          kind: 'enveloped',
          summary: lines,
          projectId: out.project_id,
          provenance: { source: 'datastream_runs' },
          data: { run: out },
        };
      },
    }),
    defineTool({
      name: 'get_run_status',
      title: 'Get a datastream run status',
      description: "A datastream run's status, for the datastreams view.",
      input: GetRunStatusToolInput,
      permission: 'data.read',
      annotations: READ_ONLY,
      visibility: ['app'],
      dataShape: { run: RunOutput },
      run: async (ctx, input) => {
        const out = presentRun(await flows.readRun(ctx, input.project_id, input.run_id));
        return {
          kind: 'enveloped',
          summary: [
            `Run ${out.id} of datastream ${out.datastream_id}: ${out.status}, ${out.rows_read} rows read, attempt ${out.attempts}.`,
            ...(out.waiting_reason ? [`Waiting: ${out.waiting_reason}`] : []),
            ...(out.error ? [`Error: ${out.error}${out.retries_exhausted ? ' (retries exhausted)' : ''}`] : []),
          ],
          projectId: out.project_id,
          provenance: { source: 'datastream_runs' },
          data: { run: out },
        };
      },
    }),
  ];
}

/** run://{project_id}/{run_id}: a run's status; ingestion announces each change on the ChangeFeed. */
export function runResources(flows: FlowsService, projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'run',
      uriTemplate: 'run://{project_id}/{run_id}',
      variables: { project_id: 'project', run_id: 'run' },
      title: 'Datastream run',
      description:
        "One ingestion run's status, window and row counts; subscribe to follow it from queued to succeeded or failed.",
      mimeType: 'application/json',
      permission: 'data.read',
      list: async () => [],
      read: async (ctx, _uri, vars) => {
        const projectId = vars.project_id ?? '';
        await projects.resolve(ctx, projectId, 'data.read');
        const run = await flows.getRun(vars.run_id ?? '');
        if (!run || run.project_id !== projectId)
          throw new NotFoundError('run_not_found', `Run ${vars.run_id} does not exist in project ${projectId}.`, {
            hint: 'GET /api/flows/runs?project_id=… lists the runs.',
          });
        return { text: JSON.stringify(presentRun(run)) };
      },
    },
  ];
}
