import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Actor } from '../platform/auth/actor.js';

/** Per-request facts an adapter hands to the MCP layer through AuthInfo.extra. */
export interface CallerInfo {
  actor: Actor;
  requestId: string;
}

export function authInfoFor(caller: CallerInfo, token = ''): AuthInfo {
  return {
    token,
    clientId: caller.actor.subject,
    scopes: caller.actor.scopes ? [...caller.actor.scopes] : [],
    extra: { caller },
  };
}

/**
 * The caller of a request a server instance handles: from its AuthInfo, or `fallback` on transports
 * where AuthInfo is not threaded per message (the SSE transport binds its caller).
 */
export function callerOf(ctx: ServerContext, fallback: CallerInfo | undefined): CallerInfo {
  const caller = ctx.http?.authInfo?.extra?.caller as CallerInfo | undefined;
  if (caller) return caller;
  if (fallback) return fallback;
  throw new Error('MCP request reached a handler without an authenticated caller');
}
