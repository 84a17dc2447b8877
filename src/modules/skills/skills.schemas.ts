import { z } from 'zod';
import { VALUE_KINDS } from '../../mcp/kit/completion.js';
import { proposal } from '../../platform/identifiers.js';
import { PageQuery } from '../../platform/pagination.js';
import { AuthorOutput, BodyMd, FieldChange } from '../documents/index.js';
import { ProjectRef } from '../projects/index.js';
import { BusinessKey } from '../taxonomy/index.js';

export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export { BodyMd, MAX_BODY_BYTES, RestoreVersionInput, VersionDiffQuery, FieldChange } from '../documents/index.js';

export const MAX_SKILL_NAME_LENGTH = 64;

/**
 * YAML front matter (SKILL.md, a Knowledge file) up to 64 KiB: name, description and metadata
 * need far less, and everything in it is stored and shown next to the body.
 */
export const MAX_FRONT_MATTER_BYTES = 64 * 1024;

/** The Agent Skills format fixes a name's spelling; a refusal names the spelling to use instead. */
export function skillNameMessage(input: unknown): string {
  return (
    'must be lowercase letters, digits and single hyphens (the Agent Skills name format), ' +
    `e.g. investigate-roas-drop.${proposal(input, '-', MAX_SKILL_NAME_LENGTH)}`
  );
}

export const SkillName = z
  .string()
  .max(MAX_SKILL_NAME_LENGTH, 'must be at most 64 characters')
  .regex(SKILL_NAME_PATTERN, { error: (issue) => skillNameMessage(issue.input) })
  .describe('Skill name, e.g. investigate-roas-drop.');

const SkillDescription = z.string().trim().min(1).max(1024);
const Acceptance = z.array(z.string().trim().min(1).max(2000)).max(200);
const References = z.array(BusinessKey).max(200);
/** What a refused metadata value is told: hosts of the Skills extension refuse anything else. */
export const METADATA_STRING_MESSAGE =
  "must be a string: the Agent Skills format allows string metadata values only (prompt arguments go in the body's ## Arguments section)";

/**
 * SKILL.md metadata: string values only, as the Agent Skills format says. A legacy `arguments`
 * list is still taken, and moved into the body's `## Arguments` section when it is written.
 */
export const SkillMetadata = z
  .object({
    arguments: z
      .union([z.string(), z.array(z.unknown()).max(200)])
      .optional()
      .describe("Legacy: a list of prompt arguments, moved into the body's ## Arguments section."),
  })
  .catchall(z.string({ error: METADATA_STRING_MESSAGE }));
const Metadata = SkillMetadata;

export const AddSkillInput = z
  .object({
    project_id: ProjectRef,
    name: SkillName,
    description: SkillDescription.describe('What the procedure is for and when to use it.'),
    body_md: BodyMd.describe('Markdown.'),
    mdm_references: References.optional().describe('Business keys besides the [[key]] ones in the body.'),
    acceptance: Acceptance.optional().describe('Replaces the Acceptance list of the body.'),
    metadata: Metadata.optional().describe(
      'SKILL.md metadata: string values (Agent Skills format). A legacy `arguments` list is moved into the body as an `## Arguments` section (docs/mcp.md, Prompts).',
    ),
  })
  .strict();
/**
 * Inside the service, metadata may also come from a stored version or a parsed file: the write
 * every path ends in checks it (assertStringMetadata), so the type stays as wide as storage.
 */
export type AddSkillInput = Omit<z.infer<typeof AddSkillInput>, 'metadata'> & { metadata?: Record<string, unknown> };

export const UpdateSkillInput = z
  .object({
    description: SkillDescription.optional(),
    body_md: BodyMd.optional(),
    mdm_references: References.optional(),
    acceptance: Acceptance.optional(),
    metadata: Metadata.optional(),
  })
  .strict();
export type UpdateSkillInput = Omit<z.infer<typeof UpdateSkillInput>, 'metadata'> & {
  metadata?: Record<string, unknown>;
};

/** What the console's editor sends to see what the service will parse from a draft. */
export const ParseSkillInput = z
  .object({
    project_id: ProjectRef,
    body_md: BodyMd,
    mdm_references: References.optional(),
    acceptance: Acceptance.optional(),
  })
  .strict();
export type ParseSkillInput = z.infer<typeof ParseSkillInput>;

export const ParsedSkillOutput = z.object({
  steps: z.array(z.object({ index: z.number(), title: z.string(), instruction: z.string() })),
  acceptance: z.array(z.string()),
  mdm_references: z.array(z.string()),
  unresolved_references: z.array(z.string()).describe('Referenced keys the project taxonomy does not hold.'),
});
export type ParsedSkillOutput = z.infer<typeof ParsedSkillOutput>;

export const SkillPathParams = z.object({ name: SkillName });
export const SkillReadQuery = z.object({
  project_id: ProjectRef,
  version: z.coerce.number().int().min(1).optional().describe('A past version; default the current one.'),
});
export const SkillListQuery = PageQuery.extend({ project_id: ProjectRef });

export const StepOutput = z.object({ index: z.number(), title: z.string(), instruction: z.string() });

export const SkillOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  version: z.number(),
  current_version: z.number(),
  description: z.string(),
  body_md: z.string(),
  steps: z.array(StepOutput),
  mdm_references: z.array(z.string()),
  unresolved_references: z.array(z.string()),
  acceptance: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  created_by: z.string(),
  /** Who wrote this version, through which channel and client. */
  author: AuthorOutput,
  deleted: z.boolean(),
});
export type SkillOutput = z.infer<typeof SkillOutput>;

export const SkillSummaryOutput = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number(),
  description: z.string(),
  mdm_references: z.array(z.string()),
  updated_at: z.string(),
});
export const SkillListOutput = z.object({ skills: z.array(SkillSummaryOutput), next_cursor: z.string().nullable() });

export const SkillVersionOutput = z.object({
  version: z.number(),
  description: z.string(),
  step_count: z.number(),
  created_at: z.string(),
  created_by: z.string(),
  author: AuthorOutput,
});
export const SkillVersionsOutput = z.object({
  name: z.string(),
  deleted: z.boolean(),
  versions: z.array(SkillVersionOutput),
  next_cursor: z.string().nullable(),
});

export const GetProcedureInput = z
  .object({
    name: SkillName,
    project_id: ProjectRef,
    version: z.number().int().min(1).optional().describe('Default: the current one.'),
  })
  .strict();

export const GetSkillsInput = z.object({ project_id: ProjectRef }).strict();

/**
 * add_skill's answer: a published version, or a proposal waiting for review, in which case
 * id and version_number are null and proposal_id names what get_proposal follows.
 */
export const AddSkillAck = z.object({
  status: z.enum(['published', 'pending_review']),
  id: z.string().nullable(),
  name: z.string(),
  version_number: z.number().nullable(),
  proposal_id: z.string().nullable(),
  next: z.string(),
});

/** GET …/prompt: how the Skill appears to the caller as an MCP prompt. */
export const SkillPromptOutput = z.object({
  name: z.string().describe('The prompt name (the Skill name): clients show it as a slash command.'),
  title: z.string().describe("The body's first heading, else the name in words."),
  description: z.string(),
  arguments: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      required: z.boolean(),
      complete: z.enum(VALUE_KINDS).optional().describe('The kind of value completion/complete offers.'),
    }),
  ),
  projects: z.array(z.string()).describe('Your projects that hold a Skill of this name: one prompt serves them all.'),
});

export const ListChange = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  reordered: z.boolean().describe('Items in both versions whose order changed.'),
});
export type ListChange = z.infer<typeof ListChange>;

export const StepChange = z.object({
  change: z.enum(['added', 'removed', 'changed', 'moved']),
  title: z.string(),
  from_index: z.number().nullable(),
  to_index: z.number().nullable(),
  from_instruction: z.string().nullable(),
  to_instruction: z.string().nullable(),
});
export type StepChange = z.infer<typeof StepChange>;

export const SkillDiffOutput = z.object({
  name: z.string(),
  from_version: z.number(),
  to_version: z.number(),
  unified_diff: z.string().describe('body_md as a unified diff (diff -u); empty when the bodies are equal.'),
  fields: z.array(FieldChange).describe('description and metadata, when they differ.'),
  steps: z.array(StepChange).describe('Parsed steps added, removed, changed (same title) or moved.'),
  acceptance: ListChange,
  references: ListChange.describe('Business keys (mdm_references).'),
});
export type SkillDiffOutput = z.infer<typeof SkillDiffOutput>;
