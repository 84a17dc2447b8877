import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { provenanceOf } from '../documents/index.js';
import { presentSearch, searchSummary } from './search.presenter.js';
import { SearchInput, SearchOutput } from './search.schemas.js';
import type { SearchService } from './search.service.js';

export function searchTools(search: SearchService) {
  return [
    defineTool({
      name: 'search_context',
      title: 'Search the context hub',
      description:
        'Start here: finds the Skills (procedures), Knowledge sheets and business keys for a question. Each hit names the call that opens it.',
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
            ranking:
              'BM25F over fields (IDF, saturation, length normalisation) + taxonomy graph boost; ties by kind and id',
          }),
          data: presentSearch(result),
          neverWithhold: ['hits'],
        };
      },
    }),
  ];
}
