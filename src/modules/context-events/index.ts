export { contextEventRoutes } from './context-events.routes.js';
export { contextEventTools } from './context-events.tools.js';
export { ContextEventsService } from './context-events.service.js';
export { contextEventsDemoSeeder } from './context-events.demo.js';
