import { defineTool, READ_ONLY } from '../../mcp/tool.js';
import { defineRoute } from '../../platform/http/route.js';
import { provenanceOf } from '../context-hub/provenance.js';
import { SearchInput, SearchOutput, SearchQuery } from './search.schemas.js';
import type { SearchResult, SearchService } from './search.service.js';

/** Hit lines the text shows; the rest are in data.hits (the text stays within 30 lines). */
const HIT_LINES = 25;

export function searchSummary(result: SearchResult): string[] {
  const quoted = JSON.stringify(
    Array.from(result.query).slice(0, 60).join('') + (Array.from(result.query).length > 60 ? '…' : ''),
  );
  if (result.total === 0) {
    return [
      `No hits for ${quoted}${result.hits.length === 0 && result.ignored_words === 0 && !/[\p{L}\p{N}]/u.test(result.query) ? ' (the query has no letters or digits to search for)' : ''}.`,
      'Try other words: a KPI (ROAS, CAC), a channel, a surface, or the problem you are investigating.',
    ];
  }
  const t = result.tiers;
  const first = result.hits[0]!;
  return [
    `${result.total_is_lower_bound ? 'At least ' : ''}${result.total} hit${result.total === 1 ? '' : 's'} for ${quoted}: ${t.title} title, ${t.description} description, ${t['graph-neighbor']} graph-neighbor${result.truncated ? ` (showing ${result.hits.length})` : ''}.${result.ignored_words > 0 ? ` ${result.ignored_words} extra words ignored.` : ''}`,
    `Open first: ${first.next.tool} ${JSON.stringify(first.next.arguments)}`,
    ...result.hits
      .slice(0, HIT_LINES)
      .map(
        (h, i) =>
          `${i + 1}. [${h.tier}] ${h.kind} ${h.key}${h.title !== h.key ? ` "${h.title}"` : ''} → ${h.next.tool}`,
      ),
    ...(result.hits.length > HIT_LINES ? [`… ${result.hits.length - HIT_LINES} more hits in data.hits.`] : []),
  ];
}

function present(result: SearchResult): SearchOutput {
  return {
    query: result.query,
    hits: result.hits,
    total: result.total,
    total_is_lower_bound: result.total_is_lower_bound,
    truncated: result.truncated,
    tiers: result.tiers,
  };
}

export function searchTools(search: SearchService) {
  return [
    defineTool({
      name: 'search_context',
      title: 'Search the context hub',
      description:
        'Start here. Searches Skills (procedures), Knowledge sheets and business keys; typos are tolerated. Hits come in tiers (title, description, graph-neighbor), best first, each with next: the call that opens it (get_procedure, get_knowledge or get_business_key).',
      input: SearchInput,
      view: 'search',
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: SearchOutput.shape,
      answerToken: (ctx, input) => search.answerToken(ctx, input),
      run: async (ctx, input) => {
        const result = await search.search(ctx, input);
        return {
          kind: 'enveloped',
          summary: searchSummary(result),
          projectId: result.resolved.project.id,
          provenance: provenanceOf(result.resolved, {
            ranking: 'full-text (weighted) + trigram; tiers title > description > graph-neighbor',
          }),
          data: present(result),
          neverWithhold: ['hits'],
        };
      },
    }),
  ];
}

export function searchRoutes(search: SearchService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/search',
      summary: 'Tiered search over Skills, Knowledge and business keys (what search_context answers)',
      tags: ['search'],
      rule: { permission: 'context.read' },
      query: SearchQuery,
      response: SearchOutput,
      handler: async ({ ctx, query }) =>
        present(await search.search(ctx, { query: query.q, project_id: query.project_id, limit: query.limit })),
    }),
  ];
}
