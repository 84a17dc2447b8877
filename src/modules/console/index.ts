export { ConsoleAssets } from './console.assets.js';
export { consoleRoutes, consoleSecurityHeaders } from './console.routes.js';
