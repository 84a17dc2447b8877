export { CompletionService } from './completion.service.js';
