import { defineRoute } from '../../platform/http/route.js';
import { presentProject } from './projects.presenter.js';
import {
  CreateProjectInput,
  ListProjectsQuery,
  ProjectListOutput,
  ProjectOutput,
  ProjectPathParams,
  UpdateProjectInput,
} from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

export function projectRoutes(projects: ProjectsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/projects',
      summary: 'List the projects you can see',
      tags: ['projects'],
      rule: { permission: 'context.read' },
      query: ListProjectsQuery,
      response: ProjectListOutput,
      handler: async ({ ctx, query }) => {
        const page = await projects.list(ctx, query);
        return { projects: page.items.map(presentProject), next_cursor: page.next_cursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/projects',
      summary: 'Create a project',
      tags: ['projects'],
      rule: { permission: 'admin' },
      body: CreateProjectInput,
      response: ProjectOutput,
      successStatus: 201,
      handler: async ({ ctx, body }) => presentProject(await projects.create(ctx, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/projects/:id',
      summary: 'Read one project',
      tags: ['projects'],
      rule: { permission: 'context.read' },
      params: ProjectPathParams,
      response: ProjectOutput,
      handler: async ({ ctx, params }) => presentProject(await projects.get(ctx, params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/projects/:id',
      summary: "Change a project's name, reporting currency, timezone or agent_writes policy",
      tags: ['projects'],
      rule: { permission: 'admin' },
      params: ProjectPathParams,
      body: UpdateProjectInput,
      response: ProjectOutput,
      handler: async ({ ctx, params, body }) => presentProject(await projects.update(ctx, params.id, body)),
    }),
  ];
}
