import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context/request-context.js';
import { retryReadOnLoss } from '../db/connection-loss.js';
import { ValidationError } from '../errors.js';
import { nulViolations, parseInput } from '../validation.js';
import { type CrossSiteGuard, guardHook, JSON_MEDIA_TYPES, type OriginPolicy, SAFE_METHODS } from './cross-site.js';
import { authorizeRequest, type GateDeps, requestContext } from './gate.js';
import type { AnyRouteSpec, RouteRule } from './route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: RouteRule;
    /** A write method that changes nothing (RouteSpec.readOnly): not audited. */
    readOnly?: boolean;
    /** The route answers malformed JSON itself instead of a problem+json 400. */
    ownsMalformedJson?: boolean;
    /** The JSON body's text is kept for the route (a signature over it); see body-parsing.ts. */
    keepsRawJson?: boolean;
    /** Media types of the bodies a state-changing route takes (default: JSON); see cross-site.ts. */
    accepts?: readonly string[];
    /** Who checks the Origin of a state-changing request (default `service`); see cross-site.ts. */
    originPolicy?: OriginPolicy;
  }
}

/** A route as registered, with its rule: the authorization matrix enumerates these from the running app. */
export interface RegisteredRoute {
  method: string;
  url: string;
  rule: RouteRule;
  /**
   * A state-changing route's cross-site protection (every method but GET, HEAD and OPTIONS):
   * the body media types it takes and who checks Origin. Absent on safe methods.
   */
  writes?: { accepts: readonly string[]; originPolicy: OriginPolicy };
}

const routeTables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route the app registered (HEAD twins included), in registration order. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...(routeTables.get(app) ?? [])];
}

/**
 * Refuses a route without an authorization rule, records every route with its rule, and puts the
 * cross-site guard in front of every state-changing route, whoever registers it (defineRoute or
 * app.route): a route cannot skip it, only declare what it takes (`accepts`) or, for the MCP
 * endpoints alone, that its own gate checks Origin (`originPolicy: 'mcp'`).
 */
export function trackRouteRules(app: FastifyInstance, guard: CrossSiteGuard): void {
  const table: RegisteredRoute[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    if (!route.config?.rule) {
      throw new Error(`route ${String(route.method)} ${route.url} has no authorization rule (config.rule)`);
    }
    const methods = [route.method].flat().map(String);
    const writes = methods.some((m) => !SAFE_METHODS.has(m))
      ? { accepts: route.config.accepts ?? JSON_MEDIA_TYPES, originPolicy: route.config.originPolicy ?? 'service' }
      : undefined;
    if (writes) {
      const own = route.onRequest;
      const hook = guardHook(guard, writes.accepts, writes.originPolicy);
      route.onRequest = (own ? [hook, ...[own].flat()] : hook) as typeof route.onRequest;
    }
    for (const method of methods) {
      const entry = { method, url: route.url ?? route.path, rule: route.config.rule };
      table.push(writes && !SAFE_METHODS.has(method) ? { ...entry, writes } : entry);
    }
  });
}

/** Registers a defineRoute spec: the gate, then NUL and zod checks of every input, then its handler. */
export function registerRoute(
  app: FastifyInstance,
  deps: GateDeps & Parameters<typeof requestContext>[1],
  route: AnyRouteSpec,
): void {
  app.route({
    method: route.method,
    url: route.url,
    bodyLimit: route.bodyLimit,
    config: {
      rule: route.rule,
      readOnly: route.readOnly === true,
      // A body schema or none: JSON (an empty body, or `{}`, for action routes); raw bodies: their types.
      ...(route.rawBody ? { accepts: route.rawBody } : {}),
      ...(route.keepsRawJson ? { keepsRawJson: true } : {}),
    },
    handler: async (request, reply) => {
      // A read (GET; HEAD is its twin) that lost its database connection runs once more on a fresh
      // one; a write reports database_unavailable (503, Retry-After) and leaves the choice to the
      // client. Nothing is retried once the handler has started answering.
      if (route.method === 'GET')
        return retryReadOnLoss(
          () => handleRoute(deps, route, request, reply),
          () => !reply.sent,
        );
      return handleRoute(deps, route, request, reply);
    },
  });
}

async function handleRoute(
  deps: GateDeps & Parameters<typeof requestContext>[1],
  route: AnyRouteSpec,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  await authorizeRequest(request, deps, route.rule);
  const rawBody: unknown = request.body;
  if (route.rawBody) {
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!route.rawBody.includes(type) || (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody))) {
      throw new ValidationError(
        [{ path: 'body', message: `must be sent as ${route.rawBody.join(' or ')}` }],
        undefined,
        'unsupported_media_type',
      );
    }
  }
  const nul = [
    ...nulViolations(request.params, 'path'),
    ...nulViolations(request.query, 'query'),
    // A binary body (an archive) is bytes, not text: the route reads and checks what it holds.
    ...(Buffer.isBuffer(rawBody) ? [] : nulViolations(rawBody, 'body')),
  ];
  if (nul.length > 0) throw new ValidationError(nul);
  const body = route.body ? parseInput(route.body, rawBody ?? {}, 'body') : rawBody;
  const query = route.query ? parseInput(route.query, request.query ?? {}, 'query') : request.query;
  const params = route.params ? parseInput(route.params, request.params ?? {}, 'path') : request.params;
  const ctx = 'public' in route.rule ? undefined : requestContext(request, deps);
  const result = await route.handler({ body, query, params, ctx: ctx as RequestContext, request, reply });
  if (reply.sent) return reply;
  reply.code(route.successStatus ?? 200);
  return result;
}
