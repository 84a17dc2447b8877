import type { Actor } from './actor.js';
import { InsufficientScopeError } from './errors.js';
import { scopeFor, type Permission, type Scope } from './permissions.js';

/**
 * On the MCP endpoint the scope a call needs depends on the JSON-RPC message, not the route: a
 * `tools/call` needs its tool's scope, a `resources/read` context.read, and every request the
 * endpoint's own (`endpointPermission`, context.read). A token whose `scope` lacks one is answered
 * HTTP 403 insufficient_scope (MCP authorization spec, step-up), before dispatch, naming all the
 * scopes the request needs. A role that lacks it is a different answer: the tool's isError role_forbidden.
 */
export function assertMcpCallScopes(
  actor: Actor,
  body: unknown,
  toolPermission: (name: string) => Permission | undefined,
  endpointPermission: Permission = 'context.read',
): void {
  if (!actor.scopes) return;
  const needed = new Set<Scope>([scopeFor(endpointPermission)]);
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    let permission: Permission | undefined;
    if (method === 'tools/call' && typeof params?.name === 'string') permission = toolPermission(params.name);
    else if (method === 'resources/read') permission = 'context.read';
    if (permission) needed.add(scopeFor(permission));
  }
  const missing = [...needed].filter((scope) => !actor.scopes!.has(scope));
  if (missing.length > 0) throw new InsufficientScopeError(needed, missing);
}
