import { z } from 'zod';
import type { RequestContext, WriteChannel } from '../../platform/context/request-context.js';
import { WRITE_CHANNELS } from '../../platform/context/request-context.js';
import type { ProjectRow } from '../projects/index.js';

// What Skills and Knowledge share about who wrote a version, and the seam through which
// the proposals module decides whether a write publishes or waits for review.

/** Who wrote a version and how; stored with every Skill and Knowledge version. */
export interface VersionAuthor {
  subject: string;
  via: WriteChannel | null;
  client_name: string | null;
  client_version: string | null;
  request_id: string | null;
  /** The proposal whose approval published the version, if one did. */
  proposal_id: string | null;
}

export function authorOf(ctx: RequestContext): VersionAuthor {
  return {
    subject: ctx.actor.subject,
    via: ctx.via ?? 'rest',
    client_name: ctx.client?.name ?? null,
    client_version: ctx.client?.version ?? null,
    request_id: ctx.requestId,
    proposal_id: null,
  };
}

/** The authorship columns of a version row (`created_at` … `proposal_id`), as every write stores them. */
export function authorColumns(author: VersionAuthor, now: Date) {
  return {
    created_at: now,
    created_by: author.subject,
    via: author.via,
    client_name: author.client_name,
    client_version: author.client_version,
    request_id: author.request_id,
    proposal_id: author.proposal_id,
  };
}

export const AuthorOutput = z.object({
  subject: z.string(),
  via: z.enum(WRITE_CHANNELS as [WriteChannel, ...WriteChannel[]]).nullable(),
  client: z.object({ name: z.string(), version: z.string() }).nullable(),
  request_id: z.string().nullable(),
  at: z.string(),
  proposal_id: z.string().nullable(),
});
export type AuthorOutput = z.infer<typeof AuthorOutput>;

/** A version row's authorship columns → the `author` object of API answers. */
export function presentAuthor(row: {
  created_by: string;
  created_at: Date;
  via: WriteChannel | null;
  client_name: string | null;
  client_version: string | null;
  request_id: string | null;
  proposal_id: string | null;
}): AuthorOutput {
  return {
    subject: row.created_by,
    via: row.via,
    client: row.client_name === null ? null : { name: row.client_name, version: row.client_version ?? '' },
    request_id: row.request_id,
    at: row.created_at.toISOString(),
    proposal_id: row.proposal_id,
  };
}

/** A write the policy turned into a proposal: what the caller is told instead of a new version. */
export interface PendingReview {
  status: 'pending_review';
  proposal_id: string;
  kind: 'skill' | 'knowledge';
  /** The Skill's name or the sheet's topic_id. */
  key: string;
  base_version: number | null;
  /** The same author's pending proposal this one replaced, if any. */
  supersedes: string | null;
  /** What happens next, in a sentence (both channels carry it). */
  next: string;
}

export interface ProposedWrite {
  kind: 'skill' | 'knowledge';
  key: string;
  base_version: number | null;
  fields: Record<string, unknown>;
}

/**
 * The project's write policy as Skills and Knowledge see it (implemented by the proposals module,
 * attached at assembly so neither module builds the other).
 */
export interface WriteGate {
  /** 'publish' to write a version now, 'propose' to submit; throws agent_writes_off when refused. */
  decide(ctx: RequestContext, project: ProjectRow): 'publish' | 'propose';
  propose(ctx: RequestContext, project: ProjectRow, write: ProposedWrite): Promise<PendingReview>;
}

/** The REST answer (202) and MCP data for a write that became a proposal. */
export const PendingReviewOutput = z.object({
  status: z.literal('pending_review'),
  proposal_id: z.string(),
  kind: z.enum(['skill', 'knowledge']),
  key: z.string(),
  base_version: z.number().nullable(),
  supersedes: z.string().nullable(),
  next: z.string(),
});

/** The summary lines both write tools give for a proposal. */
export function pendingSummary(pending: PendingReview): string[] {
  const what = `${pending.kind} ${pending.key}`;
  return [
    `status: pending_review. Your change to ${what} was not published: it is proposal ${pending.proposal_id}.`,
    ...(pending.supersedes ? [`It replaces your earlier pending proposal ${pending.supersedes}.`] : []),
    pending.next,
  ];
}
