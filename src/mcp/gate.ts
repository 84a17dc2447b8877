import type { Config } from '../platform/config.js';
import { type AuthorizableRequest, authorizeRequest, type GateDeps } from '../platform/http/gate.js';
import { createOriginValidator } from '../platform/http/host-validation.js';
import { originForbidden } from './cors.js';
import type { CallerInfo } from './server.js';

/** The rule of every MCP endpoint (/mcp, /sse, /messages). */
export const MCP_RULE = { permission: 'context.read' } as const;

/** Origin, then the REST gate (authorizeRequest) with the MCP rule: who the caller is, or why not. */
export type McpGate = (request: AuthorizableRequest, requestId: string) => Promise<CallerInfo>;

export function createMcpGate(deps: GateDeps & { config: Config }): McpGate {
  const originAllowed = createOriginValidator(deps.config);
  return async (request, requestId) => {
    const origin = request.headers.origin;
    if (!originAllowed(typeof origin === 'string' ? origin : undefined)) {
      throw originForbidden();
    }
    await authorizeRequest(request, deps, MCP_RULE);
    return { actor: request.actor!, requestId };
  };
}
