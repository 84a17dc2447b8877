import { z } from 'zod';
import { actorCanOnProject, projectRole } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { type VersionAuthor, documentKind, type DocumentKindName, type ReviewedDocuments } from '../documents/index.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectChanges, ProjectsService } from '../projects/index.js';
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

/**
 * The review of proposals: listing, reading (with diffs), approving, rejecting, withdrawing. The
 * write gate (ProposalGate) creates them; an approval publishes through the document kind named.
 */
export class ProposalsService {
  private readonly documents: ReadonlyMap<DocumentKindName, ReviewedDocuments>;

  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    documents: ReviewedDocuments[],
    private readonly changes: ProjectChanges,
    private readonly audit?: AuditRecorder,
  ) {
    this.documents = new Map(documents.map((d) => [d.kind.kind, d]));
  }

  private documentsOf(row: repo.ProposalRow): ReviewedDocuments {
    return this.documents.get(row.kind)!;
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
    await this.documentsOf(row).publishProposal(ctx, {
      projectId: row.project_id,
      key: row.object_key,
      fields,
      author,
      within: claim,
    });
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
    const snap = await this.documentsOf(row).snapshot(row.project_id, row.object_key);
    return snap?.current_version ?? null;
  }

  private async bodyAt(row: repo.ProposalRow, version: number | null): Promise<string> {
    if (version === null) return '';
    const snap = await this.documentsOf(row).snapshot(row.project_id, row.object_key, version);
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
  const kind = documentKind(row.kind);
  const allowed = kind.editable;
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
  if (edits.body_md !== undefined) {
    for (const field of kind.derivedFromBody)
      if (edits[field as keyof typeof edits] === undefined) delete merged[field];
  }
  return merged;
}
