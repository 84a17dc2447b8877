export { anomalyRoutes } from './anomalies.routes.js';
export { anomalyResources, anomalyTools } from './anomalies.tools.js';
export { AnomaliesService } from './anomalies.service.js';
export { anomalyExplainRoutes } from './anomalies.explain.routes.js';
export { anomalyExplainTools } from './anomalies.explain.tools.js';
export { anomalyTriageRoutes } from './anomalies.triage.routes.js';
export { anomalyTriageTools } from './anomalies.triage.tools.js';
export { AnomalyTriageService } from './anomalies.triage.service.js';
