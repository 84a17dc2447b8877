import { defineRoute } from '../../platform/http/route.js';
import {
  ApproveProposalInput,
  ListProposalsQuery,
  ProposalDetailOutput,
  ProposalListOutput,
  ProposalPathParams,
  RejectProposalInput,
  WithdrawProposalInput,
} from './proposals.schemas.js';
import type { ProposalsService } from './proposals.service.js';

export function proposalRoutes(proposals: ProposalsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/proposals',
      summary: "A project's proposals, newest first (reviewers see all; others their own), paginated",
      tags: ['proposals'],
      rule: { permission: 'context.read' },
      query: ListProposalsQuery,
      response: ProposalListOutput,
      handler: async ({ ctx, query }) => {
        const { proposals: items, next_cursor } = await proposals.list(ctx, query);
        return { proposals: items, next_cursor };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/proposals/:id',
      summary: 'Read a proposal, with the diff of its body against its base and against the current version',
      tags: ['proposals'],
      rule: { permission: 'context.read' },
      params: ProposalPathParams,
      response: ProposalDetailOutput,
      handler: async ({ ctx, params }) => proposals.get(ctx, params.id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/proposals/:id/approve',
      summary: 'Approve a proposal (optionally with edits): publishes it as the next version; 409 proposal_stale',
      tags: ['proposals'],
      rule: { permission: 'context.review' },
      params: ProposalPathParams,
      body: ApproveProposalInput,
      response: ProposalDetailOutput,
      handler: async ({ ctx, params, body }) => proposals.approve(ctx, params.id, body ?? {}),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/proposals/:id/reject',
      summary: 'Reject a proposal with a comment its author reads',
      tags: ['proposals'],
      rule: { permission: 'context.review' },
      params: ProposalPathParams,
      body: RejectProposalInput,
      response: ProposalDetailOutput,
      handler: async ({ ctx, params, body }) => proposals.reject(ctx, params.id, body.comment),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/proposals/:id/withdraw',
      summary: 'Withdraw your own pending proposal',
      tags: ['proposals'],
      rule: { permission: 'context.write' },
      params: ProposalPathParams,
      body: WithdrawProposalInput,
      response: ProposalDetailOutput,
      handler: async ({ ctx, params }) => proposals.withdraw(ctx, params.id),
    }),
  ];
}
