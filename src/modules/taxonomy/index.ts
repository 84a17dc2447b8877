/**
 * What the taxonomy module offers the rest of the service. Other modules, the app and the tests import
 * it from here; every other file in this folder is private to the module.
 */
export { taxonomyRoutes } from './taxonomy.routes.js';
export { BusinessKey, CreateKeyInput, RELATION_TYPES } from './taxonomy.schemas.js';
export { TaxonomyService } from './taxonomy.service.js';
export type { SkillContext } from './taxonomy.service.js';
export { taxonomyTools } from './taxonomy.tools.js';
