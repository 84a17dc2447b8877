import type { ResourceSpec } from '../../mcp/kit/registry.js';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import type { ProjectsService } from '../projects/index.js';
import { proposalSummary } from './proposals.presenter.js';
import { GetProposalInput, pendingProposalsUri, ProposalDetailOutput } from './proposals.schemas.js';
import type { ProposalsService } from './proposals.service.js';

export function proposalTools(proposals: ProposalsService) {
  return [
    defineTool({
      name: 'get_proposal',
      title: 'Follow a proposal',
      description:
        'Follows up a pending_review answer of add_skill or add_knowledge: the proposal’s status, review comment and diff.',
      input: GetProposalInput,
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: ProposalDetailOutput.shape,
      run: async (ctx, input) => {
        const proposal = await proposals.get(ctx, input.id);
        return {
          kind: 'enveloped',
          summary: proposalSummary(proposal),
          projectId: proposal.project_id,
          provenance: { source: 'proposals', object: `proposal:${proposal.id}` },
          data: proposal,
        };
      },
    }),
  ];
}

export function proposalResources(proposals: ProposalsService, projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'proposals-pending',
      uriTemplate: 'proposals://{project_id}/pending',
      variables: { project_id: 'project' },
      title: 'Pending proposals',
      description:
        "A project's proposals waiting for review (a reviewer sees all, an author their own); subscribe to hear when one is made, approved, rejected, superseded or withdrawn.",
      mimeType: 'application/json',
      permission: 'context.read',
      list: async (ctx) =>
        (await projects.list(ctx, { limit: 200 })).items.map((p) => ({
          uri: pendingProposalsUri(p.id),
          name: `${p.id} pending proposals`,
        })),
      read: async (ctx, _uri, vars) => ({
        text: JSON.stringify(await proposals.pending(ctx, vars.project_id ?? '')),
      }),
    },
  ];
}
