export type { Evaluators } from './evaluators.js';
export { EvaluatorPipeline } from './evaluators.pipeline.js';
