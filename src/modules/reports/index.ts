export { reportRoutes, reportTools } from './reports.tools.js';
export { ReportsService } from './reports.service.js';
