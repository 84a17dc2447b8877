export { ProposalGate } from './proposals.gate.js';
export { ProposalsService } from './proposals.service.js';
export { proposalRoutes } from './proposals.routes.js';
export { proposalResources, proposalTools } from './proposals.tools.js';
export { pendingProposalsUri } from './proposals.schemas.js';
