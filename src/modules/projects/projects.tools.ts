import { z } from 'zod';
import type { ResourceSpec } from '../../mcp/kit/registry.js';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { presentProject } from './projects.presenter.js';
import { ListProjectsToolInput, ProjectOutput } from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

export function projectTools(projects: ProjectsService) {
  return [
    defineTool({
      name: 'list_projects',
      title: 'List projects',
      description: 'Lists the projects you can use. Call it when project_id is ambiguous or forbidden.',
      input: ListProjectsToolInput,
      view: 'projects',
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: { projects: z.array(ProjectOutput), next_cursor: z.string().nullable() },
      run: async (ctx) => {
        const page = await projects.list(ctx, { limit: 200 });
        const items = page.items.map(presentProject);
        return {
          kind: 'enveloped',
          summary: [
            `${items.length} project${items.length === 1 ? '' : 's'} visible${page.next_cursor ? ' (more exist; use the REST API to page)' : ''}.`,
            ...items.slice(0, 25).map((p) => `- ${p.id}: ${p.name} (${p.reporting_currency}, ${p.timezone})`),
          ],
          projectId: null,
          provenance: { source: 'projects' },
          data: { projects: items, next_cursor: page.next_cursor },
        };
      },
    }),
  ];
}

export function projectResources(projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'project',
      uriTemplate: 'project://{project_id}',
      variables: { project_id: 'project' },
      title: 'Project',
      description: 'A project and its settings; subscribe to hear when they change.',
      mimeType: 'application/json',
      permission: 'context.read',
      list: async (ctx) =>
        (await projects.list(ctx, { limit: 200 })).items.map((p) => ({
          uri: `project://${p.id}`,
          name: p.id,
          title: p.name,
        })),
      read: async (ctx, _uri, vars) => ({
        text: JSON.stringify(presentProject(await projects.get(ctx, vars.project_id ?? ''))),
      }),
    },
  ];
}
