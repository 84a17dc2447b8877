import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context/request-context.js';
import { retryReadOnLoss } from '../db/connection-loss.js';
import { ValidationError } from '../errors.js';
import { nulViolations, parseInput } from '../validation.js';
import { authorizeRequest, type GateDeps, requestContext } from './gate.js';
import type { AnyRouteSpec, RouteRule } from './route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: RouteRule;
    /** A write method that changes nothing (RouteSpec.readOnly): not audited. */
    readOnly?: boolean;
    /** The route answers malformed JSON itself instead of a problem+json 400. */
    ownsMalformedJson?: boolean;
  }
}

/** A route as registered, with its rule: the authorization matrix enumerates these from the running app. */
export interface RegisteredRoute {
  method: string;
  url: string;
  rule: RouteRule;
}

const routeTables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route the app registered (HEAD twins included), in registration order. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...(routeTables.get(app) ?? [])];
}

/** Refuses a route without an authorization rule and records every route with its rule. */
export function trackRouteRules(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    if (!route.config?.rule) {
      throw new Error(`route ${String(route.method)} ${route.url} has no authorization rule (config.rule)`);
    }
    for (const method of [route.method].flat())
      table.push({ method: String(method), url: route.url ?? route.path, rule: route.config.rule });
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
    config: { rule: route.rule, readOnly: route.readOnly === true },
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
