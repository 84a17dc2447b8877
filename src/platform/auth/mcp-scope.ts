import type { Actor } from './actor.js';
import { InsufficientScopeError } from './errors.js';
import { scopeFor, type Permission } from './permissions.js';

/**
 * On the MCP endpoint the scope a call needs depends on the JSON-RPC message, not the route: a
 * `tools/call` needs its tool's scope, a `resources/read` context.read. A token whose `scope` lacks
 * it is answered HTTP 403 insufficient_scope (MCP authorization spec, step-up), before dispatch.
 * A role that lacks it is a different answer: the tool's own isError role_forbidden.
 */
export function assertMcpCallScopes(
  actor: Actor,
  body: unknown,
  toolPermission: (name: string) => Permission | undefined,
): void {
  if (!actor.scopes) return;
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    let permission: Permission | undefined;
    if (method === 'tools/call' && typeof params?.name === 'string') permission = toolPermission(params.name);
    else if (method === 'resources/read') permission = 'context.read';
    if (permission && !actor.scopes.has(scopeFor(permission))) throw new InsufficientScopeError(scopeFor(permission));
  }
}
