import { AuthorOutput, BodyMd, FieldChange } from '../documents/index.js';
import { z } from 'zod';
import { proposal } from '../../platform/identifiers.js';
import { PageQuery } from '../../platform/pagination.js';
import { ProjectRef } from '../projects/index.js';

/**
 * Lowercase letters and digits in groups joined by one "-", "_" or "." (roas-definition,
 * roas_definition, kpi.roas): it starts and ends with a letter or digit. Migration 0012 holds the
 * same rule in the store.
 */
export const TOPIC_ID_PATTERN = /^[a-z0-9]+([._-][a-z0-9]+)*$/;
export const MAX_TOPIC_ID_LENGTH = 96;
/** Knowledge ids start so (kn_…); a topic_id that did could not be told from one where either is accepted. */
const ID_PREFIX = 'kn_';

export const TopicId = z
  .string()
  .max(MAX_TOPIC_ID_LENGTH, `must be at most ${MAX_TOPIC_ID_LENGTH} characters`)
  .regex(TOPIC_ID_PATTERN, {
    error: (issue) =>
      'must be lowercase letters and digits, joined by single "-", "_" or ".", e.g. roas-definition or ' +
      `roas_definition.${proposal(issue.input, '-_.', MAX_TOPIC_ID_LENGTH)}`,
  })
  .refine((id) => !id.startsWith(ID_PREFIX), {
    error: (issue) =>
      `must not start with "${ID_PREFIX}" (the prefix of Knowledge ids). ` +
      `Use "${(issue.input as string).replace(ID_PREFIX, 'kn-')}" instead.`,
  })
  .describe('Knowledge topic id, e.g. roas-definition.');

const Title = z.string().trim().min(1).max(300);
const Owner = z.string().trim().min(1).max(200);

export const AddKnowledgeInput = z
  .object({
    project_id: ProjectRef,
    title: Title,
    body_md: BodyMd.describe('Markdown.'),
    owner: Owner.optional().describe('Team or person who keeps it current.'),
    topic_id: TopicId.optional().describe('Default: derived from the title.'),
  })
  .strict();
export type AddKnowledgeInput = z.infer<typeof AddKnowledgeInput>;

export const UpdateKnowledgeInput = z
  .object({ title: Title.optional(), body_md: BodyMd.optional(), owner: Owner.nullable().optional() })
  .strict();
export type UpdateKnowledgeInput = z.infer<typeof UpdateKnowledgeInput>;

export const KnowledgePathParams = z.object({ topic_id: TopicId });
export const KnowledgeReadQuery = z.object({
  project_id: ProjectRef,
  version: z.coerce.number().int().min(1).optional(),
});
export const KnowledgeListQuery = PageQuery.extend({ project_id: ProjectRef });

export const KnowledgeOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  topic_id: z.string(),
  title: z.string(),
  body_md: z.string(),
  owner: z.string().nullable(),
  version_number: z.number(),
  current_version: z.number(),
  created_at: z.string(),
  created_by: z.string(),
  /** Who wrote this version, through which channel and client. */
  author: AuthorOutput,
  deleted: z.boolean(),
});
export type KnowledgeOutput = z.infer<typeof KnowledgeOutput>;

export const KnowledgeSummaryOutput = z.object({
  id: z.string(),
  topic_id: z.string(),
  title: z.string(),
  owner: z.string().nullable(),
  version_number: z.number(),
  updated_at: z.string(),
});
export const KnowledgeListOutput = z.object({
  knowledge: z.array(KnowledgeSummaryOutput),
  next_cursor: z.string().nullable(),
});
export const KnowledgeVersionsOutput = z.object({
  topic_id: z.string(),
  deleted: z.boolean(),
  versions: z.array(
    z.object({
      version_number: z.number(),
      title: z.string(),
      owner: z.string().nullable(),
      created_at: z.string(),
      created_by: z.string(),
      author: AuthorOutput,
    }),
  ),
  next_cursor: z.string().nullable(),
});

export const GetKnowledgeInput = z
  .object({
    topic_id: TopicId.optional().describe('Omit for the raw list of every sheet.'),
    project_id: ProjectRef,
    version: z.number().int().min(1).optional(),
  })
  .strict();

/** add_knowledge's answer: a published version, or a proposal waiting for review. */
export const AddKnowledgeAck = z.object({
  status: z.enum(['published', 'pending_review']),
  id: z.string().nullable(),
  topic_id: z.string(),
  title: z.string(),
  version_number: z.number().nullable(),
  proposal_id: z.string().nullable(),
  next: z.string(),
});

/** A topic id from a title: ASCII-folded, lowercase, hyphen-separated, at most 96 characters. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 96)
    .replace(/-+$/, '');
}

export const KnowledgeDiffOutput = z.object({
  topic_id: z.string(),
  from_version: z.number(),
  to_version: z.number(),
  unified_diff: z.string().describe('body_md as a unified diff (diff -u); empty when the bodies are equal.'),
  fields: z.array(FieldChange).describe('title and owner, when they differ.'),
});
export type KnowledgeDiffOutput = z.infer<typeof KnowledgeDiffOutput>;

/** A sheet's own fields: what a write stores as a version. */
export interface SheetFields {
  topic_id: string;
  title: string;
  body_md: string;
  owner: string | null;
}
