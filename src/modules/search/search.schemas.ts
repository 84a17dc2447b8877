import { z } from 'zod';
import { ProjectRef } from '../projects/projects.schemas.js';

export const MAX_QUERY_CHARS = 2000;
export const SNIPPET_MAX = 160;

export const SearchInput = z
  .object({
    query: z
      .string()
      .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters: search with the few words that matter`)
      .refine((q) => q.trim().length > 0, 'must not be empty: give a few words, e.g. "roas drop"')
      .describe('A few words: a KPI, a problem, a procedure.'),
    project_id: ProjectRef,
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict();
export type SearchInput = z.infer<typeof SearchInput>;

export const SearchQuery = z.object({
  q: SearchInput.shape.query,
  project_id: ProjectRef,
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const TIERS = ['title', 'description', 'graph-neighbor'] as const;

export const Hit = z.object({
  kind: z.enum(['skill', 'knowledge', 'business_key']),
  id: z.string(),
  key: z.string(),
  title: z.string(),
  tier: z.enum(TIERS),
  score: z.number(),
  snippet: z.string(),
  next: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }),
});
export type Hit = z.infer<typeof Hit>;

export const TierCounts = z.object({ title: z.number(), description: z.number(), 'graph-neighbor': z.number() });

export const SearchOutput = z.object({
  query: z.string(),
  summary: z.array(z.string()).describe("The text lines search_context gives an agent (the envelope's summary)."),
  hits: z.array(Hit),
  total: z.number(),
  total_is_lower_bound: z
    .boolean()
    .describe(
      'True when more objects matched than are ranked (50 per kind and way of matching, those with all the words first); total then counts the ranked ones.',
    ),
  truncated: z.boolean(),
  tiers: TierCounts,
});
export type SearchOutput = z.infer<typeof SearchOutput>;
