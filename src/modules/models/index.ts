/**
 * What the models module offers the rest of the service. Other modules, the app and the tests import
 * it from here; every other file in this folder is private to the module.
 */
export { adPerformanceDaily } from './ad-performance.model.js';
export { kpisDaily } from './kpis-daily.model.js';
export { ModelGraph } from './model-graph.js';
export type { LandingChunk, ModelScope, ModelSpec } from './model-graph.js';
