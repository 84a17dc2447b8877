import { defineRoute } from '../../platform/http/route.js';
import { presentDatastream, presentReportDefinition, presentRun } from './flows.presenter.js';
import {
  EmptyBody,
  FlowPathParams,
  FlowsOutput,
  FlowsQuery,
  RunListOutput,
  RunQueuedOutput,
  RunsQuery,
  UpsertFlowInput,
  UpsertFlowOutput,
} from './flows.schemas.js';
import type { FlowsService } from './flows.service.js';

export function flowRoutes(flows: FlowsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/flows',
      summary: "A project's datastreams and report definitions",
      tags: ['flows'],
      rule: { permission: 'data.read' },
      query: FlowsQuery,
      response: FlowsOutput,
      handler: async ({ ctx, query }) => {
        const { datastreams, reportDefinitions } = await flows.list(ctx, query.project_id);
        const now = ctx.clock.now();
        return {
          datastreams: datastreams.map((d) => presentDatastream(d, flows.schedule(d, now))),
          report_definitions: reportDefinitions.map(presentReportDefinition),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/flows/upsert',
      summary:
        'Create or update a datastream or report definition (idempotent on project and name); answers the stored object',
      tags: ['flows'],
      rule: { permission: 'admin' },
      body: UpsertFlowInput,
      response: UpsertFlowOutput,
      handler: async ({ ctx, body }) => {
        const result = await flows.upsert(ctx, body);
        if (result.kind === 'datastream')
          return {
            kind: result.kind,
            datastream: presentDatastream(result.datastream, flows.schedule(result.datastream, ctx.clock.now())),
          };
        return { kind: result.kind, report_definition: presentReportDefinition(result.report_definition) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/flows/runs',
      summary: 'Runs of a project (optionally one datastream), newest first',
      tags: ['flows'],
      rule: { permission: 'data.read' },
      query: RunsQuery,
      response: RunListOutput,
      handler: async ({ ctx, query }) => {
        const page = await flows.listRuns(ctx, query);
        return { runs: page.items.map(presentRun), next_cursor: page.next_cursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/flows/:id/run',
      summary: 'Queue a run of a datastream now (no body needed); answers the run id',
      tags: ['flows'],
      rule: { permission: 'context.write' },
      params: FlowPathParams,
      body: EmptyBody,
      response: RunQueuedOutput,
      successStatus: 202,
      handler: async ({ ctx, params }) => {
        const run = await flows.runNow(ctx, params.id);
        return { id: run.id, run: presentRun(run) };
      },
    }),
  ];
}
