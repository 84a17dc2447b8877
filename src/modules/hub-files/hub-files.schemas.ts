import { z } from 'zod';

/** A query flag: `true`/`1` set it; absent, `false` or `0` leave it off. */
const Flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

export const ImportQuery = z.object({
  dry_run: Flag.describe('Only plan: report what would change, change nothing.'),
  prune: Flag.describe('Delete what the folder no longer holds (Skills, Knowledge, keys, links).'),
  propose: Flag.describe('New and changed Skills and Knowledge become proposals for review instead of versions.'),
});
export type ImportOptions = z.infer<typeof ImportQuery>;

export const CHANGE_KINDS = ['skill', 'knowledge', 'business_key', 'business_link'] as const;

export const PlannedChange = z.object({
  kind: z.enum(CHANGE_KINDS),
  name: z.string().describe('Skill name, topic_id, business key, or "<skill|knowledge>:<source> <relation> <key>".'),
  action: z.enum(['create', 'update', 'delete']),
  file: z.string().nullable().describe('The file it comes from; null for a deletion.'),
  version: z.number().nullable().describe('Skills and Knowledge: the version written (null in a dry run).'),
});
export type PlannedChange = z.infer<typeof PlannedChange>;

const Counts = z.object({
  skills: z.number(),
  knowledge: z.number(),
  business_keys: z.number(),
  business_links: z.number(),
});
export type Counts = z.infer<typeof Counts>;

export const FileProblemOutput = z.object({ file: z.string(), line: z.number().nullable(), message: z.string() });

export const ImportResultOutput = z.object({
  project_id: z.string(),
  dry_run: z.boolean(),
  prune: z.boolean(),
  applied: z.boolean().describe('Whether the changes were written (false in a dry run or when nothing changes).'),
  changes: z.array(PlannedChange),
  unchanged: Counts.describe('Objects in the folder identical to the hub: left alone.'),
  kept: Counts.describe('Objects the folder does not hold, left in place because prune is off.'),
  ignored: z
    .array(z.string())
    .describe(
      'Files outside the layout (skills/<name>/SKILL.md, knowledge/*.md, taxonomy.yaml): the first 20 ' +
        'met, sorted, each cut to 200 characters; ignored_count counts them all.',
    ),
  ignored_count: z.number().describe('How many files outside the layout the folder holds.'),
  proposals: z.array(z.string()).describe('With propose: the ids of the proposals created.'),
});
export type ImportResultOutput = z.infer<typeof ImportResultOutput>;
