export { projectRoutes } from './projects.routes.js';
export { projectResources, projectTools } from './projects.tools.js';
export { ProjectsService } from './projects.service.js';
