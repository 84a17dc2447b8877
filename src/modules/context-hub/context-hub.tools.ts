import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../mcp/tool.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import { ProjectRef } from '../projects/projects.schemas.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { SkillsService } from '../skills/skills.service.js';
import type { TaxonomyService } from '../taxonomy/taxonomy.service.js';

export interface ContextHubDeps {
  skills: SkillsService;
  knowledge: KnowledgeService;
  taxonomy: TaxonomyService;
}

/** The whole hub of one project: every live Skill and Knowledge sheet, the taxonomy and the links. */
export async function dumpHub(deps: ContextHubDeps, ctx: RequestContext, projectRef: string) {
  const { resolved, skills } = await deps.skills.all(ctx, projectRef);
  const projectId = resolved.project.id;
  const [{ knowledge }, { keys, links }] = await Promise.all([
    deps.knowledge.all(ctx, projectId),
    deps.taxonomy.all(ctx, projectId),
  ]);
  return { project_id: projectId, skills, knowledge, business_keys: keys, business_links: links };
}

export function contextHubTools(deps: ContextHubDeps) {
  return [
    defineTool({
      name: 'get_context_hub',
      title: 'The whole context hub (raw)',
      description:
        'Returns every live Skill, Knowledge sheet, business key and business link of the project as one raw JSON block (unbounded, no envelope). For questions, use search_context instead.',
      input: z.object({ project_id: ProjectRef }).strict(),
      permission: 'context.read',
      annotations: READ_ONLY,
      run: async (ctx, input) => ({ kind: 'raw', value: await dumpHub(deps, ctx, input.project_id) }),
    }),
  ];
}
