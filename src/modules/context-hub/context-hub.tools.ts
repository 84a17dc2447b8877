import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { ContextHubInput } from './context-hub.schemas.js';
import type { ContextHubService } from './context-hub.service.js';

export function contextHubTools(hub: ContextHubService) {
  return [
    defineTool({
      name: 'get_context_hub',
      title: 'The whole context hub (raw)',
      description:
        'The whole hub (Skills, Knowledge, business keys, links) as one raw, unbounded JSON block. For questions, use search_context.',
      input: ContextHubInput,
      permission: 'context.read',
      annotations: READ_ONLY,
      run: async (ctx, input) => ({ kind: 'raw', value: await hub.dump(ctx, input.project_id) }),
    }),
  ];
}
