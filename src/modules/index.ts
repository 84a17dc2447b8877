import type { Services } from './services.js';
import type { ResourceSpec } from '../mcp/registry.js';
import type { AnyToolSpec } from '../mcp/tool.js';
import type { AnyRouteSpec } from '../platform/http/route.js';
import { projectResources, projectRoutes, projectTools } from './projects/index.js';
import { contextHubRoutes, contextHubToolList } from './context-hub/index.js';
import { orgRoutes } from './org/index.js';
import { moneyRoutes, moneyTools } from './money/index.js';
import { contextEventRoutes, contextEventTools } from './context-events/index.js';
import { credentialRoutes } from './credentials/index.js';
import { flowRoutes, flowTools } from './flows/index.js';
import { anomalyResources, anomalyRoutes, anomalyTools } from './anomalies/index.js';
import { insightResources, insightRoutes, insightTools } from './insights/index.js';
import { dqRoutes, dqTools } from './data-quality/index.js';
import { runResources } from './facts/index.js';
import { reportRoutes, reportTools } from './reports/index.js';

/** Every module's REST routes; the OpenAPI document and the authorization matrix enumerate these. */
export function moduleRoutes(services: Services): AnyRouteSpec[] {
  return [
    ...contextHubRoutes(services),
    ...projectRoutes(services.projects),
    ...orgRoutes(services.org, services.deps.config.authMode),
    ...moneyRoutes(services.money),
    ...contextEventRoutes(services.contextEvents),
    ...credentialRoutes(services.credentials),
    ...flowRoutes(services.flows),
    ...anomalyRoutes(services.evaluators.anomalies),
    ...insightRoutes(services.evaluators.insights),
    ...dqRoutes(services.evaluators.dq),
    ...reportRoutes(services.evaluators.reports),
  ];
}

/** Every module's MCP tools, registered once into the shared registry. */
export function moduleTools(services: Services): AnyToolSpec[] {
  return [
    ...projectTools(services.projects),
    ...contextHubToolList(services),
    ...moneyTools(services.money),
    ...contextEventTools(services.contextEvents),
    ...flowTools(services.flows, services.ingestion),
    ...anomalyTools(services.evaluators.anomalies),
    ...insightTools(services.evaluators.insights, services.evaluators.kpis),
    ...dqTools(services.evaluators.dq),
    ...reportTools(services.evaluators.reports),
  ];
}

export function moduleResources(services: Services): ResourceSpec[] {
  return [
    ...projectResources(services.projects),
    ...anomalyResources(services.evaluators.anomalies, services.projects),
    ...insightResources(services.evaluators.insights, services.projects),
    ...runResources(services.flows, services.projects),
  ];
}
