/**
 * The anomalies module's public face: the reads and settings (AnomaliesService), detection (the
 * rule and the evaluation, also as the `detection` namespace), explanation, triage and feedback.
 */
export { AnomaliesService } from './anomalies.service.js';
export { anomaliesModel } from './anomalies.model.js';
export { anomalyRoutes } from './anomalies.routes.js';
export { anomalyResources, anomalyTools } from './anomalies.tools.js';
export {
  anomaliesResourceUri,
  Direction,
  DIRECTIONS,
  Metric,
  METRICS,
  TOTAL_CHANNEL,
  type AnomalyOutput,
} from './anomalies.schemas.js';
export * as detection from './detection/index.js';
export * from './detection/index.js';
export { anomalyExplainRoutes } from './explain/explain.routes.js';
export { anomalyExplainTools } from './explain/explain.tools.js';
export { AnomalyExplainService } from './explain/explain.service.js';
export { anomalyTriageRoutes } from './triage/triage.routes.js';
export { anomalyTriageTools } from './triage/triage.tools.js';
export { AnomalyTriageService } from './triage/triage.service.js';
export { anomalyFeedbackRoutes } from './feedback/feedback.routes.js';
export { AnomalyFeedbackService } from './feedback/feedback.service.js';
