import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { actorCanOnProject, projectRole } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import {
  authorOf,
  type PendingReview,
  type ProposedWrite,
  type VersionAuthor,
  type WriteGate,
} from '../context-hub/context-hub.authorship.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { AuditRecorder } from '../org/audit.service.js';
import type { ProjectChanges, ProjectRow, ProjectsService } from '../projects/projects.service.js';
import type { SkillsService } from '../skills/skills.service.js';
import { unifiedDiff } from '../../platform/line-diff.js';
import { presentProposal } from './proposals.presenter.js';
import * as repo from './proposals.repo.js';
import {
  pendingProposalsUri,
  type ApproveProposalInput,
  type ListProposalsQuery,
  type ProposalDetailOutput,
  type ProposalOutput,
} from './proposals.schemas.js';

const CURSOR = z.tuple([z.string(), z.string()]);
const SKILL_EDITS = ['description', 'body_md', 'mdm_references', 'acceptance', 'metadata'] as const;
const KNOWLEDGE_EDITS = ['title', 'body_md', 'owner'] as const;

/**
 * Issue 24: the project's write policy (agent_writes) and the proposals it creates. Skills and
 * Knowledge ask it, through WriteGate, whether a write publishes; approval publishes through them.
 */
export class ProposalsService implements WriteGate {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly skills: SkillsService,
    private readonly knowledge: KnowledgeService,
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

  /** Reviewers see every proposal of the project; others only their own. */
  async list(ctx: RequestContext, query: ListProposalsQuery) {
    const { project } = await this.projects.resolve(ctx, query.project_id, 'context.read');
    const reviewer = actorCanOnProject(ctx.actor, project.id, 'context.review');
    const rows = await repo.listProposals(this.db, {
      project_id: project.id,
      status: query.status,
      author: reviewer ? undefined : ctx.actor.subject,
      before: decodeCursor(query.cursor, CURSOR),
      limit: query.limit + 1,
    });
    const { items, next_cursor } = pageOf(rows, query.limit, (r) => [r.created_at.toISOString(), r.id]);
    return { project_id: project.id, proposals: items.map(presentProposal), next_cursor };
  }

  async get(ctx: RequestContext, id: string): Promise<ProposalDetailOutput> {
    return this.detail(await this.visible(ctx, id));
  }

  async approve(ctx: RequestContext, id: string, input: ApproveProposalInput): Promise<ProposalDetailOutput> {
    const row = await this.decidable(ctx, id);
    const fields = applyEdits(row, input.edits);
    const current = await this.currentVersion(row);
    if (current !== row.base_version && !input.rebase) throw stale(row, current);
    const author: VersionAuthor = {
      subject: row.author_subject,
      via: row.author_via,
      client_name: row.author_client_name,
      client_version: row.author_client_version,
      request_id: row.request_id,
      proposal_id: row.id,
    };
    const decided = { decided_by: ctx.actor.subject, decided_at: ctx.clock.now(), comment: input.comment ?? null };
    const claim = async (tx: SqlExecutor, version: number) => {
      // The check above ran before this transaction; a version published since then shows here.
      if (!input.rebase && row.base_version !== null && version !== row.base_version + 1) throw stale(row, version - 1);
      const done = await repo.decide(tx, row.id, { status: 'approved', ...decided, published_version: version });
      if (!done) throw alreadyDecided(row.id);
      await this.audit?.record(
        ctx,
        {
          action: 'proposal.approve',
          target: `proposal:${row.id}`,
          projectId: row.project_id,
          details: { kind: row.kind, key: row.object_key, version, rebase: input.rebase ?? false },
        },
        tx,
      );
    };
    if (row.kind === 'skill') {
      await this.skills.publishApproved(ctx, row.project_id, row.object_key, fields as never, author, claim);
    } else {
      const sheet = {
        topic_id: row.object_key,
        ...(fields as { title: string; body_md: string; owner: string | null }),
      };
      await this.knowledge.publishApproved(ctx, row.project_id, sheet, author, claim);
    }
    await this.changes.resourceUpdated(pendingProposalsUri(row.project_id));
    return this.get(ctx, id);
  }

  async reject(ctx: RequestContext, id: string, comment: string): Promise<ProposalDetailOutput> {
    const row = await this.decidable(ctx, id);
    await this.close(ctx, row, 'rejected', comment);
    return this.get(ctx, id);
  }

  /** The author takes their pending proposal back. */
  async withdraw(ctx: RequestContext, id: string): Promise<ProposalDetailOutput> {
    const row = await this.visible(ctx, id);
    if (row.author_subject !== ctx.actor.subject) {
      throw new ForbiddenError('proposal_not_author', `Only the author of proposal ${id} can withdraw it.`, {
        hint: 'A reviewer rejects it instead (POST /api/proposals/{id}/reject).',
      });
    }
    if (row.status !== 'pending') throw alreadyDecided(id);
    await this.close(ctx, row, 'withdrawn', null);
    return this.get(ctx, id);
  }

  private async close(
    ctx: RequestContext,
    row: repo.ProposalRow,
    status: 'rejected' | 'withdrawn',
    comment: string | null,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const done = await repo.decide(tx, row.id, {
        status,
        decided_by: ctx.actor.subject,
        decided_at: ctx.clock.now(),
        comment,
        published_version: null,
      });
      if (!done) throw alreadyDecided(row.id);
      await this.audit?.record(
        ctx,
        {
          action: status === 'rejected' ? 'proposal.reject' : 'proposal.withdraw',
          target: `proposal:${row.id}`,
          projectId: row.project_id,
          details: { kind: row.kind, key: row.object_key },
        },
        tx,
      );
    });
    await this.changes.resourceUpdated(pendingProposalsUri(row.project_id));
  }

  /**
   * The proposal when the caller may see it: a grant on its project and either the review
   * permission or authorship. Anything else (another project's admin included) answers exactly
   * like a proposal that does not exist.
   */
  private async visible(ctx: RequestContext, id: string): Promise<repo.ProposalRow> {
    const row = await repo.findProposal(this.db, id);
    const seen =
      row !== undefined &&
      projectRole(ctx.actor, row.project_id) !== undefined &&
      actorCanOnProject(ctx.actor, row.project_id, 'context.read') &&
      (row.author_subject === ctx.actor.subject || actorCanOnProject(ctx.actor, row.project_id, 'context.review'));
    if (!seen) {
      throw new NotFoundError('proposal_not_found', `No proposal ${id}.`, {
        hint: 'Use the proposal_id a pending_review answer gave you; list proposals with GET /api/proposals.',
      });
    }
    return row;
  }

  private async decidable(ctx: RequestContext, id: string): Promise<repo.ProposalRow> {
    const row = await this.visible(ctx, id);
    this.projects.assertGrant(ctx, row.project_id, 'context.review');
    if (row.status !== 'pending') throw alreadyDecided(id);
    return row;
  }

  private async currentVersion(row: repo.ProposalRow): Promise<number | null> {
    const snap =
      row.kind === 'skill'
        ? await this.skills.snapshot(row.project_id, row.object_key)
        : await this.knowledge.snapshot(row.project_id, row.object_key);
    return snap?.current_version ?? null;
  }

  private async bodyAt(row: repo.ProposalRow, version: number | null): Promise<string> {
    if (version === null) return '';
    const snap =
      row.kind === 'skill'
        ? await this.skills.snapshot(row.project_id, row.object_key, version)
        : await this.knowledge.snapshot(row.project_id, row.object_key, version);
    return snap?.version?.body_md ?? '';
  }

  private async detail(row: repo.ProposalRow): Promise<ProposalDetailOutput> {
    const current = await this.currentVersion(row);
    const proposed = String(row.fields.body_md ?? '');
    const label = (v: number | null) => (v === null ? '/dev/null' : `${row.object_key} v${v}`);
    const target = `${row.object_key} (proposal ${row.id})`;
    return {
      ...presentProposal(row),
      current_version: current,
      stale: row.status === 'pending' && current !== row.base_version,
      diff: {
        against_base: unifiedDiff(await this.bodyAt(row, row.base_version), proposed, {
          from: label(row.base_version),
          to: target,
        }),
        against_current: unifiedDiff(await this.bodyAt(row, current), proposed, { from: label(current), to: target }),
      },
    };
  }

  /** The pending proposals resource of a project (same visibility as the list). */
  async pending(ctx: RequestContext, projectRef: string): Promise<{ project_id: string; proposals: ProposalOutput[] }> {
    const page = await this.list(ctx, { project_id: projectRef, status: 'pending', limit: 100 });
    return { project_id: page.project_id, proposals: page.proposals };
  }
}

function stale(row: repo.ProposalRow, current: number | null): ConflictError {
  const base = row.base_version === null ? 'no version' : `v${row.base_version}`;
  return new ConflictError(
    'proposal_stale',
    `The ${row.kind} ${row.object_key} moved on since the proposal: it was based on ${base}, the current one is ${current === null ? 'none (deleted)' : `v${current}`}.`,
    {
      details: { base_version: row.base_version, current_version: current },
      hint: 'Read the diff against the current version (GET /api/proposals/{id}), then approve with {"rebase": true} to publish it on top, or reject it.',
    },
  );
}

function alreadyDecided(id: string): ConflictError {
  return new ConflictError('proposal_decided', `Proposal ${id} is no longer pending.`, {
    hint: 'Read it (GET /api/proposals/{id}) to see its status.',
  });
}

/** The proposed fields with a reviewer's edits on top; an edit that is not a field of this kind is refused. */
function applyEdits(row: repo.ProposalRow, edits: ApproveProposalInput['edits']): Record<string, unknown> {
  if (!edits) return row.fields;
  const allowed: readonly string[] = row.kind === 'skill' ? SKILL_EDITS : KNOWLEDGE_EDITS;
  const wrong = Object.keys(edits).filter((k) => !allowed.includes(k));
  if (wrong.length > 0) {
    throw new ValidationError(
      wrong.map((k) => ({ path: `edits.${k}`, message: `is not a field of a ${row.kind}` })),
      undefined,
      'validation_failed',
      `A ${row.kind} proposal takes edits to: ${allowed.join(', ')}.`,
    );
  }
  const merged: Record<string, unknown> = { ...row.fields, ...edits };
  // A new body re-derives what the old one supplied, as PUT does, unless the edits set it too.
  if (row.kind === 'skill' && edits.body_md !== undefined) {
    if (edits.mdm_references === undefined) delete merged.mdm_references;
    if (edits.acceptance === undefined) delete merged.acceptance;
  }
  return merged;
}
