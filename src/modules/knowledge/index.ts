export {
  KnowledgeService,
  type KnowledgeDeps,
  type KnowledgeSnapshot,
  type KnowledgeWrite,
} from './knowledge.service.js';
export { knowledgeRoutes } from './knowledge.routes.js';
export { knowledgeTools } from './knowledge.tools.js';
export { AddKnowledgeInput, TopicId, type SheetFields } from './knowledge.schemas.js';
export { renderKnowledgeFile } from './knowledge.file.js';
