import { z } from 'zod';
import { PageQuery } from '../../platform/pagination.js';
import { ProjectRef } from '../projects/index.js';

export const BUSINESS_KEY_PATTERN = /^[a-z][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$/;

export const BusinessKey = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(BUSINESS_KEY_PATTERN, 'must be a dotted lowercase key such as kpi.roas or surface.checkout')
  .describe('Business key, e.g. kpi.roas.');

export const RELATION_TYPES = ['explains', 'uses', 'related_to'] as const;
export const SOURCE_TYPES = ['knowledge', 'skill'] as const;

const Label = z.string().trim().min(1).max(200);
const Description = z.string().max(4000);
const Synonyms = z.array(z.string().trim().min(1).max(100)).max(50);

export const CreateKeyInput = z
  .object({
    project_id: ProjectRef,
    key: BusinessKey,
    label: Label,
    description: Description.optional(),
    parent: BusinessKey.nullable().optional().describe('The parent key; it must exist.'),
    synonyms: Synonyms.optional(),
  })
  .strict();
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;

export const UpdateKeyInput = z
  .object({
    label: Label.optional(),
    description: Description.nullable().optional(),
    parent: BusinessKey.nullable().optional().describe('null makes the key a root.'),
    synonyms: Synonyms.optional(),
  })
  .strict();
export type UpdateKeyInput = z.infer<typeof UpdateKeyInput>;

export const ProjectQuery = z.object({ project_id: ProjectRef });
export const ProjectPageQuery = PageQuery.extend({ project_id: ProjectRef });
export const KeyPathParams = z.object({ key: BusinessKey });

export const BusinessKeyOutput = z.object({
  key: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  parent: z.string().nullable(),
  synonyms: z.array(z.string()),
  updated_at: z.string(),
});
export type BusinessKeyOutput = z.infer<typeof BusinessKeyOutput>;

export const KeyListOutput = z.object({ keys: z.array(BusinessKeyOutput), next_cursor: z.string().nullable() });

export interface TreeNode {
  key: string;
  label: string;
  children: TreeNode[];
}
export const TreeNodeOutput: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ key: z.string(), label: z.string(), children: z.array(TreeNodeOutput) }),
);
export const TaxonomyTreeOutput = z.object({
  project_id: z.string(),
  roots: z.array(TreeNodeOutput),
  key_count: z.number(),
});

export const CreateLinkInput = z
  .object({
    project_id: ProjectRef,
    relation_type: z.enum(RELATION_TYPES),
    source_type: z.enum(SOURCE_TYPES),
    source_id: z.string().min(1).max(200).describe("The object's id (or a Skill's name / a Knowledge topic_id)."),
    business_key: BusinessKey,
  })
  .strict();
export type CreateLinkInput = z.infer<typeof CreateLinkInput>;

export const LinkOutput = z.object({
  id: z.string(),
  relation_type: z.string(),
  source_type: z.string(),
  source_id: z.string(),
  source_key: z.string().describe("The Skill's name or the Knowledge topic_id."),
  business_key: z.string(),
  created_at: z.string(),
});
export type LinkOutput = z.infer<typeof LinkOutput>;
export const LinkListOutput = z.object({ links: z.array(LinkOutput), next_cursor: z.string().nullable() });
export const LinkPathParams = z.object({ id: z.string().min(1).max(100) });

export const GetBusinessKeyToolInput = z.object({ key: BusinessKey, project_id: ProjectRef }).strict();
