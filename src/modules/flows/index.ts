export { flowRoutes } from './flows.routes.js';
export { flowTools, runResources } from './flows.tools.js';
export { FlowsService } from './flows.service.js';
