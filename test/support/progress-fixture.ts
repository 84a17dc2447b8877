import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';

/**
 * A transport-level fixture: a tool that reports progress before answering, so tests can prove
 * that progress travels on the call's own response stream in every era. Registered only by tests
 * through the same `mcpExtensions` seam the conformance fixtures use.
 */
export function progressFixture(server: McpServer): void {
  server.registerTool(
    'test_progress',
    {
      description: 'Test fixture: reports 3 progress steps, then answers.',
      inputSchema: z.object({ steps: z.number().int().min(1).max(10).default(3) }),
    },
    async ({ steps }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
}
