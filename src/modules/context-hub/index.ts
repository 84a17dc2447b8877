import type { AnyToolSpec } from '../../mcp/tool.js';
import type { AnyRouteSpec } from '../../platform/http/route.js';
import { knowledgeRoutes } from '../knowledge/knowledge.routes.js';
import { knowledgeTools } from '../knowledge/knowledge.tools.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import { searchRoutes, searchTools } from '../search/search.tools.js';
import type { SearchService } from '../search/search.service.js';
import { skillRoutes } from '../skills/skills.routes.js';
import { skillTools } from '../skills/skills.tools.js';
import type { SkillsService } from '../skills/skills.service.js';
import { taxonomyRoutes } from '../taxonomy/taxonomy.routes.js';
import { taxonomyTools } from '../taxonomy/taxonomy.tools.js';
import type { TaxonomyService } from '../taxonomy/taxonomy.service.js';
import { contextHubTools } from './context-hub.tools.js';

export interface ContextHubServices {
  skills: SkillsService;
  knowledge: KnowledgeService;
  taxonomy: TaxonomyService;
  search: SearchService;
}

/** REST routes of the skills, knowledge, taxonomy and search modules. */
export function contextHubRoutes(s: ContextHubServices): AnyRouteSpec[] {
  return [
    ...skillRoutes(s.skills),
    ...knowledgeRoutes(s.knowledge),
    ...taxonomyRoutes(s.taxonomy),
    ...searchRoutes(s.search),
  ];
}

/** MCP tools in the reading order agents are told: search, procedure, knowledge, key, then writes and dumps. */
export function contextHubToolList(s: ContextHubServices): AnyToolSpec[] {
  const skills = skillTools(s.skills);
  const knowledge = knowledgeTools(s.knowledge);
  return [
    ...searchTools(s.search),
    skills[0]!, // get_procedure
    knowledge[0]!, // get_knowledge
    ...taxonomyTools(s.taxonomy),
    knowledge[1]!, // add_knowledge
    skills[1]!, // add_skill
    skills[2]!, // get_skills
    ...contextHubTools(s),
  ];
}
