export { flowRoutes } from './flows.routes.js';
export { flowTools, runResources } from './flows.tools.js';
export {
  type DatastreamRow,
  FlowsService,
  type ReportDefinitionRow,
  type RunRow,
  type RunStarter,
} from './flows.service.js';
export { FlowRunLedger, type FlowRuns, type NewRun } from './flows.ledger.js';
export { DATASETS } from './catalog.js';
export { ReportDefinition } from './flows.schemas.js';
