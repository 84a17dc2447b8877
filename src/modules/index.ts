import type { Services } from './services.js';
import type { ResourceSpec } from '../mcp/kit/registry.js';
import type { AnyToolSpec } from '../mcp/kit/tool.js';
import type { AnyRouteSpec } from '../platform/http/route.js';
import { alertRoutes } from './alerts/index.js';
import {
  anomalyExplainRoutes,
  anomalyExplainTools,
  anomalyResources,
  anomalyRoutes,
  anomalyTools,
  anomalyTriageRoutes,
  anomalyFeedbackRoutes,
  anomalyTriageTools,
} from './anomalies/index.js';
import { backupRoutes } from './backup/index.js';
import { contextEventRoutes, contextEventTools } from './context-events/index.js';
import { contextHubTools } from './context-hub/index.js';
import { credentialRoutes } from './credentials/index.js';
import { dqRoutes, dqTools } from './data-quality/index.js';
import { flowRoutes, flowTools, runResources } from './flows/index.js';
import { hubFilesRoutes } from './hub-files/index.js';
import { insightResources, insightRoutes, insightTools } from './insights/index.js';
import { knowledgeRoutes, knowledgeTools } from './knowledge/index.js';
import { moneyRoutes, moneyTools } from './money/index.js';
import { orgRoutes } from './org/index.js';
import { providerRoutes } from './providers/index.js';
import { projectResources, projectRoutes, projectTools } from './projects/index.js';
import { proposalResources, proposalRoutes, proposalTools } from './proposals/index.js';
import { reportRoutes, reportTools } from './reports/index.js';
import { searchRoutes, searchTools } from './search/index.js';
import { skillRoutes, skillTools } from './skills/index.js';
import { taxonomyRoutes, taxonomyTools } from './taxonomy/index.js';

/**
 * The context hub's tools in the reading order agents are told (the server instructions): search,
 * procedure, knowledge, key, then writes and the raw dump. Named, so a module adding a tool or
 * reordering its own list cannot move another tool; `inOrder` fails at start on a name missing here.
 */
export const CONTEXT_HUB_TOOL_ORDER = [
  'search_context',
  'get_procedure',
  'get_knowledge',
  'get_business_key',
  'add_knowledge',
  'add_skill',
  'get_skills',
  'get_context_hub',
  'get_proposal',
] as const;

/** `tools` in the order `names` gives; throws when the two do not hold the same names. */
export function inOrder(tools: AnyToolSpec[], names: readonly string[]): AnyToolSpec[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const ordered = names.map((name) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`tool order names ${name}, which no module registers`);
    return tool;
  });
  const unplaced = tools.filter((tool) => !names.includes(tool.name)).map((tool) => tool.name);
  if (unplaced.length > 0) throw new Error(`tools missing from the tool order: ${unplaced.join(', ')}`);
  return ordered;
}

/** Every module's REST routes; the OpenAPI document and the authorization matrix enumerate these. */
export function moduleRoutes(services: Services): AnyRouteSpec[] {
  const { evaluators } = services;
  return [
    ...skillRoutes(services.skills, services.skillPrompts),
    ...knowledgeRoutes(services.knowledge),
    ...proposalRoutes(services.proposals),
    ...taxonomyRoutes(services.taxonomy),
    ...hubFilesRoutes(services.hubFiles),
    ...searchRoutes(services.search),
    ...projectRoutes(services.projects),
    ...orgRoutes(services.org, services.deps.config.authMode),
    ...moneyRoutes(services.money),
    ...contextEventRoutes(services.contextEvents),
    ...credentialRoutes(services.credentials),
    ...providerRoutes(),
    ...flowRoutes(services.flows),
    ...anomalyRoutes(evaluators.anomalies),
    ...anomalyExplainRoutes(evaluators.explain),
    ...anomalyTriageRoutes(services.anomalyTriage),
    ...anomalyFeedbackRoutes(services.anomalyFeedback),
    ...insightRoutes(evaluators.insights),
    ...dqRoutes(evaluators.dq),
    ...reportRoutes(evaluators.reports),
    ...backupRoutes(services.backups),
    ...alertRoutes(services.alerts),
  ];
}

/** Every module's MCP tools, registered once into the shared registry (tools/list keeps this order). */
export function moduleTools(services: Services): AnyToolSpec[] {
  const { evaluators } = services;
  const contextHub = inOrder(
    [
      ...searchTools(services.search),
      ...skillTools(services.skills),
      ...knowledgeTools(services.knowledge),
      ...taxonomyTools(services.taxonomy),
      ...contextHubTools(services.contextHub),
      ...proposalTools(services.proposals),
    ],
    CONTEXT_HUB_TOOL_ORDER,
  );
  return [
    ...projectTools(services.projects),
    ...contextHub,
    ...moneyTools(services.money),
    ...contextEventTools(services.contextEvents),
    ...flowTools(services.flows, services.ingestion),
    ...anomalyTools(evaluators.anomalies),
    ...anomalyExplainTools(evaluators.explain),
    ...anomalyTriageTools(services.anomalyTriage),
    ...insightTools(evaluators.insights, evaluators.kpis),
    ...dqTools(evaluators.dq),
    ...reportTools(evaluators.reports),
  ];
}

export function moduleResources(services: Services): ResourceSpec[] {
  return [
    ...projectResources(services.projects),
    ...proposalResources(services.proposals, services.projects),
    ...anomalyResources(services.evaluators.anomalies, services.projects),
    ...insightResources(services.evaluators.insights, services.projects),
    ...runResources(services.flows, services.projects),
  ];
}
