export { projectRoutes } from './projects.routes.js';
export { projectResources, projectTools } from './projects.tools.js';
export {
  type ProjectChanges,
  type ProjectCreationGuard,
  type ProjectRow,
  ProjectsService,
  type ResolvedProject,
} from './projects.service.js';
export { type ProjectChangeSource, ProjectDirectory } from './project-directory.js';
export { PROJECT_ID_PATTERN } from './projects.reference.js';
export {
  CurrencyCode,
  ProjectId,
  ProjectListOutput,
  ProjectPathParams,
  ProjectRef,
  TimeZone,
} from './projects.schemas.js';
