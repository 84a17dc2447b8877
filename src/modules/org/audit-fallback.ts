import type { AnyToolSpec } from '../../mcp/kit/tool.js';
import type { Clock } from '../../platform/clock.js';
import type { AnsweredRequest } from '../../platform/http/app.js';
import type { AuditService } from './audit.service.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MCP_PATHS = /^\/(mcp|sse|messages)(\/|\?|$)/;

/**
 * REST: after a successful write that recorded no audit entry of its own, record a generic one
 * (`http.post` on `/api/...`). MCP transports are skipped: tool calls are audited per call.
 * The HTTP app calls it once an answer is ready, before sending it (HttpAppDeps.beforeSend).
 */
export function restAuditFallback(audit: AuditService, clock: Clock): (request: AnsweredRequest) => Promise<void> {
  return async (request) => {
    const { requestId, path, actor } = request;
    if (
      !WRITE_METHODS.has(request.method) ||
      request.readOnly ||
      request.statusCode >= 400 ||
      !actor ||
      MCP_PATHS.test(path)
    ) {
      audit.consumeRecorded(requestId);
      return;
    }
    const ctx = { actor, requestId, clock, log: request.log };
    await audit
      .recordUnlessRecorded(ctx, {
        action: `http.${request.method.toLowerCase()}`,
        target: request.routeUrl ?? path,
        details: { path, status: request.statusCode },
      })
      .catch((err: unknown) => request.log.error({ err }, 'audit fallback failed'));
  };
}

/** MCP: every tool that is not read-only records a generic entry after success unless it recorded its own. */
export function withToolAuditFallback(tools: AnyToolSpec[], audit: AuditService): AnyToolSpec[] {
  return tools.map((tool) => {
    if (tool.annotations.readOnlyHint) return tool;
    return {
      ...tool,
      run: async (ctx, input) => {
        const answer = await tool.run(ctx, input);
        const projectId =
          typeof (input as { project_id?: unknown }).project_id === 'string'
            ? (input as { project_id: string }).project_id
            : undefined;
        const resolved =
          answer.kind === 'enveloped' && answer.projectId
            ? answer.projectId
            : projectId !== 'default'
              ? projectId
              : undefined;
        await audit.recordUnlessRecorded(ctx, {
          action: `tool.${tool.name}`,
          target: resolved ?? tool.name,
          ...(resolved ? { projectId: resolved } : {}),
        });
        return answer;
      },
    };
  });
}
