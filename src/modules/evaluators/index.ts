export { createEvaluators, type Evaluators } from './evaluators.js';
