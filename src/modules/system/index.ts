export { systemRoutes } from './system.routes.js';
export { type SystemDeps, SystemService } from './system.service.js';
