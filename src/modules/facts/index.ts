export { createEvaluators, type Evaluators } from './evaluators.js';
export { runResources } from './run-resource.js';
export { FactsService, FACT_TYPES } from './facts.service.js';
