import { randomBytes } from 'node:crypto';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError } from '../../platform/errors.js';
import { authorOf, type PendingReview, type ProposedWrite, type WriteGate } from '../documents/index.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectChanges, ProjectRow } from '../projects/index.js';
import * as repo from './proposals.repo.js';
import { pendingProposalsUri } from './proposals.schemas.js';

/**
 * The project's write policy (agent_writes) and the proposals it creates. Skills, Knowledge and
 * the hub import ask it whether a write publishes. It needs none of them, so it is built first and
 * handed to each; the review side (ProposalsService) is built after them.
 */
export class ProposalGate implements WriteGate {
  constructor(
    private readonly db: Database,
    private readonly changes: ProjectChanges,
    private readonly audit?: AuditRecorder,
  ) {}

  /**
   * publish: versions at once. review: every MCP write, and a REST write by someone who may not
   * review, becomes a proposal. off: MCP writes are refused; people's REST writes still publish.
   */
  decide(ctx: RequestContext, project: ProjectRow): 'publish' | 'propose' {
    const mode = project.agent_writes;
    if (mode === 'publish') return 'publish';
    const agent = ctx.via === 'mcp';
    if (mode === 'off') {
      if (!agent) return 'publish';
      throw new ForbiddenError(
        'agent_writes_off',
        `Project ${project.id} does not accept writes from agents (its agent_writes policy is off).`,
        {
          hint: 'Do not retry. Tell the user what you would change; a person can edit it in the console or over REST, or a project admin can set agent_writes to review.',
        },
      );
    }
    if (agent) return 'propose';
    return actorCanOnProject(ctx.actor, project.id, 'context.review') ? 'publish' : 'propose';
  }

  async propose(ctx: RequestContext, project: ProjectRow, write: ProposedWrite): Promise<PendingReview> {
    const id = `prop_${randomBytes(8).toString('hex')}`;
    const author = authorOf(ctx);
    const now = ctx.clock.now();
    const supersedes = await this.db.transaction(async (tx) => {
      const replaced = await repo.supersedePending(
        tx,
        { project_id: project.id, kind: write.kind, object_key: write.key, author_subject: author.subject },
        id,
        now,
      );
      await repo.insertProposal(tx, {
        id,
        project_id: project.id,
        kind: write.kind,
        object_key: write.key,
        base_version: write.base_version,
        fields: write.fields,
        author_subject: author.subject,
        author_via: author.via ?? 'rest',
        author_client_name: author.client_name,
        author_client_version: author.client_version,
        request_id: author.request_id,
        created_at: now,
      });
      await this.audit?.record(
        ctx,
        {
          action: 'proposal.create',
          target: `proposal:${id}`,
          projectId: project.id,
          details: { kind: write.kind, key: write.key, base_version: write.base_version, supersedes: replaced ?? null },
        },
        tx,
      );
      return replaced ?? null;
    });
    await this.changes.resourceUpdated(pendingProposalsUri(project.id));
    return {
      status: 'pending_review',
      proposal_id: id,
      kind: write.kind,
      key: write.key,
      base_version: write.base_version,
      supersedes,
      next: `A project admin approves it (it becomes the next version) or rejects it. Follow it with get_proposal {"id": "${id}"}.`,
    };
  }
}
