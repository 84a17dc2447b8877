import { z } from 'zod';
import { ProjectRef } from '../projects/index.js';

/** Longer questions are refused; the service reads at most MAX_READ_CHARS of them (search.service.ts). */
export const MAX_QUERY_CHARS = 20_000;
export const SNIPPET_MAX = 160;

export const SearchInput = z
  .object({
    query: z
      .string()
      .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters: search with the sentences that matter`)
      .refine((q) => q.trim().length > 0, 'must not be empty: give a few words, e.g. "roas drop"')
      .describe(
        'The question as you would ask it (a sentence is fine: stop words are ignored, stems and identifiers such as kpi.roas match), or a few words: a KPI, a problem, a procedure.',
      ),
    project_id: ProjectRef,
    limit: z.number().int().min(1).max(100).default(10),
  })
  .strict();
export type SearchInput = z.infer<typeof SearchInput>;

export const SearchQuery = z.object({
  q: SearchInput.shape.query,
  project_id: ProjectRef,
  limit: z.coerce.number().int().min(1).max(100).default(10),
  explain: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe("true: each hit carries its score's parts (editors and up)."),
});

export const ScoreExplanation = z.object({
  score: z.number().describe('The final score: bm25f plus every boost, rounded to 6 decimals.'),
  bm25f: z.number(),
  documents: z.number().describe('N: documents of every kind in the project.'),
  terms: z.array(
    z.object({
      term: z.string().describe('The stem scored.'),
      typo_of: z.string().optional().describe('The stem asked for, which no document holds.'),
      similarity: z.number().optional().describe('Trigram similarity of the two: the part is scaled by it.'),
      idf: z.number(),
      fields: z.record(z.string(), z.object({ tf: z.number(), length: z.number() })),
      score: z.number(),
    }),
  ),
  boosts: z.array(z.object({ kind: z.enum(['graph']), via: z.string(), score: z.number() })),
});

export const TIERS = ['title', 'description', 'graph-neighbor'] as const;

export const Hit = z.object({
  kind: z.enum(['skill', 'knowledge', 'business_key']),
  id: z.string(),
  key: z.string(),
  title: z.string(),
  tier: z.enum(TIERS),
  score: z.number(),
  matched: z
    .object({ fields: z.array(z.string()), words: z.array(z.string()) })
    .describe('The fields a question stem occurs in and the stems (empty for a graph neighbour only).'),
  snippet: z.string(),
  explain: ScoreExplanation.optional(),
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
      'True when a stem of the question is held by more documents than enter the candidates (the best by term impact); total then counts the candidates.',
    ),
  ignored_words: z.number().describe('Distinct stems beyond the 64 that count.'),
  empty_reason: z
    .enum(['no_words', 'only_stop_words', 'no_match'])
    .optional()
    .describe('Why nothing was found: no letters or digits, only stop words, or no document holds the words.'),
  truncated: z.boolean(),
  tiers: TierCounts,
});
export type SearchOutput = z.infer<typeof SearchOutput>;
