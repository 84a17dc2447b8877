import type { RequestContext } from '../../platform/context/request-context.js';
import type { KnowledgeService } from '../knowledge/index.js';
import type { SkillsService } from '../skills/index.js';
import type { TaxonomyService } from '../taxonomy/index.js';

/**
 * The hub as one concept over its parts (Skills, Knowledge, the taxonomy): what no single part
 * answers alone, such as the whole hub of a project.
 */
export class ContextHubService {
  constructor(
    private readonly deps: { skills: SkillsService; knowledge: KnowledgeService; taxonomy: TaxonomyService },
  ) {}

  /** The whole hub of one project: every live Skill and Knowledge sheet, the taxonomy and the links. */
  async dump(ctx: RequestContext, projectRef: string) {
    const { resolved, skills } = await this.deps.skills.all(ctx, projectRef);
    const projectId = resolved.project.id;
    const [{ knowledge }, { keys, links }] = await Promise.all([
      this.deps.knowledge.all(ctx, projectId),
      this.deps.taxonomy.all(ctx, projectId),
    ]);
    return { project_id: projectId, skills, knowledge, business_keys: keys, business_links: links };
  }
}
