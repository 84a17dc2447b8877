export { insightRoutes } from './insights.routes.js';
export { insightResources, insightTools } from './insights.tools.js';
export { InsightsService } from './insights.service.js';
export { KpisService } from './kpis.service.js';
