export { searchRoutes } from './search.routes.js';
export { searchTools } from './search.tools.js';
export { SearchService } from './search.service.js';
export { reindexSearch } from './search.reindex.js';
export { snippetOf } from './search.service.js';
export { searchStatsDrift } from './search.repo.js';
export { ContextVersionReader } from './search.versions.js';
