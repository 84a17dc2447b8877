export { insightRoutes } from './insights.routes.js';
export { insightResources, insightTools } from './insights.tools.js';
export { InsightsService, insightResourceUri } from './insights.service.js';
export { KpisService } from './kpis.service.js';
export { KPI_LINES } from './insights.narrative.js';
