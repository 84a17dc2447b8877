export { reportRoutes } from './reports.routes.js';
export { reportTools } from './reports.tools.js';
export { ReportsService } from './reports.service.js';
