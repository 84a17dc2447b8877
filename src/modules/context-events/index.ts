export { contextEventRoutes } from './context-events.routes.js';
export { contextEventTools } from './context-events.tools.js';
export { ContextEventsService } from './context-events.service.js';
export { contextEventsDemoSeeder, DEMO_EVENTS, demoEventDays } from './context-events.demo.js';
export { EventType } from './context-events.schemas.js';
