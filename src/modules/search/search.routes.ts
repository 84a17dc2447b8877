import { defineRoute } from '../../platform/http/route.js';
import { presentSearch } from './search.presenter.js';
import { SearchOutput, SearchQuery } from './search.schemas.js';
import type { SearchService } from './search.service.js';

export function searchRoutes(search: SearchService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/search',
      summary:
        'Relevance-ranked search over Skills, Knowledge and business keys (what search_context answers); explain=true (editors and up) adds score parts',
      tags: ['search'],
      rule: { permission: 'context.read' },
      query: SearchQuery,
      response: SearchOutput,
      handler: async ({ ctx, query }) =>
        presentSearch(
          await search.search(ctx, {
            query: query.q,
            project_id: query.project_id,
            limit: query.limit,
            explain: query.explain,
          }),
        ),
    }),
  ];
}
