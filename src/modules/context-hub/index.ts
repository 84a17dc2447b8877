export { ContextHubService } from './context-hub.service.js';
export { contextHubTools } from './context-hub.tools.js';
