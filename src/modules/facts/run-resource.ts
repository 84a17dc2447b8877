import type { ResourceSpec } from '../../mcp/registry.js';
import type { FlowsService } from '../flows/flows.service.js';
import { presentRun } from '../flows/flows.presenter.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { NotFoundError } from '../../platform/errors.js';

/** run://{project_id}/{run_id}: a run's status; ingestion announces each change on the ChangeFeed. */
export function runResources(flows: FlowsService, projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'run',
      uriTemplate: 'run://{project_id}/{run_id}',
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
