import { z } from 'zod';
import { WRITE_CHANNELS, type WriteChannel } from '../../platform/context/request-context.js';
import { PageQuery } from '../../platform/pagination.js';
import { ProjectRef } from '../projects/index.js';
import { BodyMd } from '../documents/index.js';
import { SkillMetadata } from '../skills/index.js';
import { BusinessKey } from '../taxonomy/index.js';

export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'superseded', 'withdrawn'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const ProposalId = z
  .string()
  .regex(/^prop_[a-f0-9]{16}$/, 'must be a proposal id such as prop_0123456789abcdef')
  .describe('The proposal_id of a pending_review answer.');

export const ProposalPathParams = z.object({ id: ProposalId });

export const ListProposalsQuery = PageQuery.extend({
  project_id: ProjectRef,
  status: z.enum(PROPOSAL_STATUSES).optional().describe('Only proposals in this status; default all.'),
});
export type ListProposalsQuery = z.infer<typeof ListProposalsQuery>;

/** Changes a reviewer makes while approving; fields that do not belong to the proposal's kind are refused. */
const ApproveEdits = z
  .object({
    description: z.string().trim().min(1).max(1024).optional().describe('Skill only.'),
    body_md: BodyMd.optional(),
    mdm_references: z.array(BusinessKey).max(200).optional().describe('Skill only.'),
    acceptance: z.array(z.string().trim().min(1).max(2000)).max(200).optional().describe('Skill only.'),
    metadata: SkillMetadata.optional().describe('Skill only.'),
    title: z.string().trim().min(1).max(300).optional().describe('Knowledge only.'),
    owner: z.string().trim().min(1).max(200).nullable().optional().describe('Knowledge only.'),
  })
  .strict();

export const ApproveProposalInput = z
  .object({
    edits: ApproveEdits.optional().describe('Changes applied on top of the proposed fields before publishing.'),
    rebase: z
      .boolean()
      .optional()
      .describe('Publish even though the object has a newer version than the proposal was based on.'),
    comment: z.string().trim().max(2000).optional(),
  })
  .strict();
export type ApproveProposalInput = z.infer<typeof ApproveProposalInput>;

export const RejectProposalInput = z
  .object({ comment: z.string().trim().min(1).max(2000).describe('Why; the author reads it with get_proposal.') })
  .strict();

export const WithdrawProposalInput = z.object({}).strict();

export const GetProposalInput = z.object({ id: ProposalId }).strict();

const ProposalAuthor = z.object({
  subject: z.string(),
  via: z.enum(WRITE_CHANNELS as [WriteChannel, ...WriteChannel[]]),
  client: z.object({ name: z.string(), version: z.string() }).nullable(),
  request_id: z.string().nullable(),
});

export const ProposalOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  kind: z.enum(['skill', 'knowledge']),
  /** The Skill's name (kind skill), else null. */
  name: z.string().nullable(),
  /** The Knowledge sheet's topic_id (kind knowledge), else null. */
  topic_id: z.string().nullable(),
  base_version: z.number().nullable(),
  fields: z.record(z.string(), z.unknown()),
  author: ProposalAuthor,
  created_at: z.string(),
  status: z.enum(PROPOSAL_STATUSES),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  comment: z.string().nullable(),
  published_version: z.number().nullable(),
  superseded_by: z.string().nullable(),
});
export type ProposalOutput = z.infer<typeof ProposalOutput>;

export const ProposalListOutput = z.object({ proposals: z.array(ProposalOutput), next_cursor: z.string().nullable() });

export const ProposalDetailOutput = ProposalOutput.extend({
  /** The object's live version now (null: it does not exist or was deleted). */
  current_version: z.number().nullable(),
  /** The object moved on since base_version: approving needs {"rebase": true}. */
  stale: z.boolean(),
  diff: z.object({
    /** Unified diff of body_md from base_version to the proposal (from empty for a new object). */
    against_base: z.string(),
    /** Unified diff of body_md from the current version to the proposal. */
    against_current: z.string(),
  }),
});
export type ProposalDetailOutput = z.infer<typeof ProposalDetailOutput>;

export const pendingProposalsUri = (projectId: string) => `proposals://${projectId}/pending`;
