export { flowRoutes } from './flows.routes.js';
export { flowTools } from './flows.tools.js';
export { FlowsService } from './flows.service.js';
