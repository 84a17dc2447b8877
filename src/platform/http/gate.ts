import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { actorHas } from '../auth/actor.js';
import type { Authenticator } from '../auth/authenticator.js';
import { InsufficientScopeError } from '../auth/errors.js';
import { scopeFor } from '../auth/permissions.js';
import type { Clock } from '../clock.js';
import { CLIENT_HEADER, type RequestContext } from '../context/request-context.js';
import { ForbiddenError } from '../errors.js';
import type { RouteRule } from './route.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

/** What the gate reads of a request (a FastifyRequest, or the MCP fast path's own view of one). */
export interface AuthorizableRequest {
  headers: IncomingHttpHeaders;
  url: string;
  body?: unknown;
  actor?: Actor;
}

export interface GateDeps {
  authenticator: Authenticator;
  /** Called after authentication on every non-public request (rate limiting per actor). */
  onAuthenticated?: (actor: Actor, request: AuthorizableRequest) => Promise<void>;
}

/** Authenticates and checks the route rule's permission; the one gate for REST and MCP. */
export async function authorizeRequest(request: AuthorizableRequest, deps: GateDeps, rule: RouteRule): Promise<void> {
  if ('public' in rule) return;
  const actor = await deps.authenticator.authenticate(request.headers.authorization);
  request.actor = actor;
  await deps.onAuthenticated?.(actor, request);
  if (!actorHas(actor, rule.permission)) {
    if (actor.scopes && !actor.scopes.has(scopeFor(rule.permission)))
      throw new InsufficientScopeError([scopeFor(rule.permission)]);
    throw new ForbiddenError('role_forbidden', `Your role does not allow this (it needs ${rule.permission}).`);
  }
}

export function requestContext(request: FastifyRequest, deps: { clock: Clock }): RequestContext {
  if (!request.actor) throw new Error('request context built before authentication');
  const via = request.headers[CLIENT_HEADER] === 'console' ? 'console' : 'rest';
  return { actor: request.actor, requestId: String(request.id), clock: deps.clock, log: request.log, via };
}
