export { dqRoutes } from './dq.routes.js';
export { dqTools } from './dq.tools.js';
export { DataQualityService } from './dq.service.js';
