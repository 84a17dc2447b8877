export { type Fact, FACT_TYPES, type FactType, FactsService } from './facts.service.js';
