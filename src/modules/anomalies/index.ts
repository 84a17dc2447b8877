export { anomalyRoutes } from './anomalies.routes.js';
export { anomalyResources, anomalyTools } from './anomalies.tools.js';
export { AnomaliesService } from './anomalies.service.js';
