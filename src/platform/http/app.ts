import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { RequestContext } from '../../app/context.js';
import type { Actor } from '../auth/actor.js';
import { actorHas } from '../auth/actor.js';
import type { Authenticator } from '../auth/authenticator.js';
import { InsufficientScopeError } from '../auth/errors.js';
import { scopeFor } from '../auth/permissions.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AppError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { retryReadOnLoss } from '../db/connection-loss.js';
import { checkJsonDepth } from '../json-depth.js';
import { nulViolations, parseInput } from '../validation.js';
import { sendWhileDraining } from './body-limits.js';
import { createHostValidator } from './host-validation.js';
import { buildOpenApiDocument } from './openapi.js';
import { createPublicUrls } from './public-url.js';
import { internalProblem, problemFromError } from './problem.js';
import type { AnyRouteSpec, RouteRule } from './route.js';

export const REST_BODY_LIMIT = 2 * 1024 * 1024;
export const MCP_BODY_LIMIT = 4 * 1024 * 1024;
/** The longest path parameter the router accepts, as sent (percent-encoded). */
const MAX_PATH_PARAM_CHARS = 4096;

function refuseFastifySchemas(): never {
  throw new Error('Fastify route schemas are not used here: validate with zod through defineRoute');
}

/** Marks a JSON body that did not parse on routes that answer it themselves (JSON-RPC -32700). */
export const MALFORMED_JSON = Symbol('malformed-json');

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: RouteRule;
    /**
     * The route answers malformed JSON (MALFORMED_JSON) and JSON nested too deep (a TooDeepJson)
     * itself instead of a problem+json 400.
     */
    ownsMalformedJson?: boolean;
  }
  interface FastifyRequest {
    actor?: Actor;
  }
}

/** Paths exempt from Host validation so platform probes work (DESIGN §7). */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

export interface HttpAppDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  authenticator: Authenticator;
  version: string;
  /** Called after authentication on every non-public request (rate limiting, issue 4). */
  onAuthenticated?: (actor: Actor, request: AuthorizableRequest) => Promise<void>;
  /** WWW-Authenticate value for 401 answers and 403 insufficient_scope answers. */
  challenge(request: FastifyRequest, error: UnauthorizedError | InsufficientScopeError): string;
}

export function requestContext(request: FastifyRequest, deps: Pick<HttpAppDeps, 'clock'>): RequestContext {
  if (!request.actor) throw new Error('request context built before authentication');
  return { actor: request.actor, requestId: String(request.id), clock: deps.clock, log: request.log };
}

/**
 * Request ids must be unique across replicas and restarts, not unguessable (they are echoed to the
 * caller and logged). A random prefix per process plus a counter gives that; reading 9 random bytes
 * from OpenSSL per request was 5 % of a cheap MCP call's CPU.
 */
const REQUEST_ID_PREFIX = `req_${randomBytes(9).toString('base64url')}`;
let requestCounter = 0;
function newRequestId(): string {
  requestCounter += 1;
  return `${REQUEST_ID_PREFIX}${requestCounter.toString(36)}`;
}

/** The caller's X-Request-Id when it is a sane one, else a new id. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._-]{8,128}$/.test(given) ? given : newRequestId();
}

/** Where a pre-router (see installPreRouter) leaves the request id it gave a request it handed on. */
const PRE_ROUTED_ID = Symbol('pre-routed-request-id');

/**
 * Takes a request on node's `request` event, before Fastify routes it: returns false to leave it to
 * Fastify, or true when it owns the request; it may still hand it to `fastify` later (after giving
 * it an id with `handOn`).
 */
export type PreRouter = (
  req: IncomingMessage,
  res: ServerResponse,
  fastify: (req: IncomingMessage, res: ServerResponse) => void,
) => boolean;

const preRouterSlots = new WeakMap<FastifyInstance, { route?: PreRouter }>();

/**
 * Lets a hot endpoint answer its plain requests without Fastify's per-request machinery (routing,
 * hooks, child logger, reply). It must apply the same gate as the route it shadows
 * (authorizeRequest) and hand everything else on, so Fastify still gives every other answer.
 */
export function installPreRouter(app: FastifyInstance, route: PreRouter): void {
  const slot = preRouterSlots.get(app);
  if (!slot) throw new Error('installPreRouter: the app was not built by buildHttpApp');
  slot.route = route;
}

/** Marks a request a pre-router hands to Fastify with the id it already used (logs, answers). */
export function handOnWithId(req: IncomingMessage, requestId: string): void {
  (req as IncomingMessage & { [PRE_ROUTED_ID]?: string })[PRE_ROUTED_ID] = requestId;
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .code(error.status)
    .header('content-type', 'application/problem+json')
    .send(problemFromError(error, String(reply.request.id)));
}

/** What the gate reads of a request (a FastifyRequest, or the MCP pre-router's own view of one). */
export interface AuthorizableRequest {
  headers: IncomingHttpHeaders;
  url: string;
  body?: unknown;
  actor?: Actor;
}

/** Authenticates and checks the route rule's permission; the one gate for REST and MCP. */
export async function authorizeRequest(
  request: AuthorizableRequest,
  deps: HttpAppDeps,
  rule: RouteRule,
): Promise<void> {
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

export function buildHttpApp(deps: HttpAppDeps, routes: AnyRouteSpec[]): FastifyInstance {
  const slot: { route?: PreRouter } = {};
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: REST_BODY_LIMIT,
    // request.ip (logs) and request.protocol follow X-Forwarded-* only from TRUSTED_PROXIES.
    trustProxy: deps.config.trustedProxies.length > 0 ? [...deps.config.trustedProxies] : false,
    genReqId: (req) => (req as IncomingMessage & { [PRE_ROUTED_ID]?: string })[PRE_ROUTED_ID] ?? requestIdFor(req),
    // Fastify's own server, with a door for the pre-router (installPreRouter) in front of it.
    serverFactory: (handler, options) => {
      // Fastify has filled in its defaults by the time it calls the factory; its types do not say so.
      const o = options as unknown as {
        http?: http.ServerOptions;
        keepAliveTimeout: number;
        requestTimeout: number;
        connectionTimeout: number;
        maxRequestsPerSocket: number;
      };
      const server = http.createServer(o.http ?? {}, (req, res) => {
        if (slot.route?.(req, res, handler)) return;
        handler(req, res);
      });
      // What Fastify's own factory sets on the server it builds.
      server.keepAliveTimeout = o.keepAliveTimeout;
      server.requestTimeout = o.requestTimeout;
      server.setTimeout(o.connectionTimeout);
      if (o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
      return server;
    },
    // Path parameters are checked by each route's zod schema (a subject may be 255 characters,
    // several times that once percent-encoded); the router's default limit of 100 would answer a
    // valid 101-character business key with its own 414.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    // What the router itself refuses (a path that does not decode, a parameter beyond that limit)
    // is answered like every other error: problem+json with the request id.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      const code = (error as { code?: string }).code;
      if (code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(reply, new UriTooLong());
      if (code === 'FST_ERR_BAD_URL')
        return sendProblem(
          reply,
          new ValidationError(
            [{ path: 'path', message: 'is not valid percent-encoding' }],
            'The request path could not be decoded.',
            'bad_url',
          ),
        );
      // Only async route constraints remain, and no route has one.
      request.log.error({ err: { message: error.message, code } }, 'router failed');
      const plain: FastifyReply = reply;
      return plain
        .code(500)
        .header('content-type', 'application/problem+json')
        .send(internalProblem(String(request.id)));
    },
    return503OnClosing: true,
    forceCloseConnections: true,
    // Requests are validated by each route's zod schema (defineRoute), never by Fastify JSON schemas.
    // Fastify otherwise loads Ajv and fast-json-stringify at construction: ~80 ms of every start.
    schemaController: {
      compilersFactory: { buildValidator: refuseFastifySchemas, buildSerializer: refuseFastifySchemas },
    },
  });

  preRouterSlots.set(app, slot);
  const hostAllowed = createHostValidator(deps.config);

  const table: RegisteredRoute[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    if (!route.config?.rule) {
      throw new Error(`route ${String(route.method)} ${route.url} has no authorization rule (config.rule)`);
    }
    for (const method of [route.method].flat())
      table.push({ method: String(method), url: route.url ?? route.path, rule: route.config.rule });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const path = request.url.split('?')[0]!;
    if (!PROBE_PATHS.has(path) && !hostAllowed(request.headers.host)) {
      return sendProblem(
        reply,
        new ForbiddenError('host_forbidden', 'The Host header is not allowed for this server.'),
      );
    }
  });

  // JSON bodies: an empty body is "no body" (action endpoints), a malformed one a clear 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (request.routeOptions.config?.ownsMalformedJson) return done(null, MALFORMED_JSON);
      return done(
        new ValidationError(
          [{ path: 'body', message: 'is not valid JSON' }],
          'The request body is not valid JSON.',
          'malformed_json',
        ),
        undefined,
      );
    }
    const tooDeep = checkJsonDepth(value);
    if (!tooDeep) return done(null, value);
    if (request.routeOptions.config?.ownsMalformedJson) return done(null, tooDeep);
    done(tooDeep.toValidationError('body'), undefined);
  });
  app.addContentTypeParser(['text/markdown', 'text/plain'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, String(body)),
  );

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof UnauthorizedError || error instanceof InsufficientScopeError)
        reply.header('www-authenticate', deps.challenge(request, error));
      if ('retryAfterSeconds' in error) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendProblem(reply, error);
    }
    const fastifyError = error as { statusCode?: number; code?: string };
    const status = fastifyError.statusCode;
    if (status === 413) {
      const problem = problemFromError(
        new PayloadTooLarge(request.routeOptions.bodyLimit ?? REST_BODY_LIMIT),
        String(request.id),
      );
      return sendWhileDraining(reply, 413, 'application/problem+json', JSON.stringify(problem));
    }
    if (status === 415) {
      return reply
        .code(415)
        .header('content-type', 'application/problem+json')
        .send({
          ...internalProblem(String(request.id)),
          status: 415,
          title: 'Unsupported media type',
          code: 'unsupported_media_type',
          type: 'https://context-hub.dev/problems/unsupported_media_type',
          detail: 'Send application/json.',
        });
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return sendProblem(reply, new ValidationError([], 'The request could not be read.', 'bad_request'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .header('content-type', 'application/problem+json')
      .send(internalProblem(String(request.id)));
  });

  app.setNotFoundHandler({}, (request, reply) => {
    const path = request.url.split('?')[0]!;
    sendProblem(reply, new NotFoundRoute(request.method, path));
  });

  for (const route of routes) registerRoute(app, deps, route);

  const openApiRoutes = routes;
  const publicUrls = createPublicUrls(deps.config);
  app.get('/api/openapi.json', { config: { rule: { permission: 'context.read' } } }, async (request) => {
    await authorizeRequest(request, deps, { permission: 'context.read' });
    return buildOpenApiDocument(openApiRoutes, { version: deps.version, serverUrl: publicUrls.base(request.raw) });
  });

  return app;
}

class UriTooLong extends AppError {
  readonly status = 414;
  readonly title = 'URI too long';
  constructor() {
    super('uri_too_long', `A path parameter is longer than ${MAX_PATH_PARAM_CHARS} characters.`);
  }
}

class PayloadTooLarge extends AppError {
  readonly status = 413;
  readonly title = 'Payload too large';
  constructor(limit: number) {
    super('payload_too_large', `The request body exceeds ${limit} bytes.`);
  }
}

class NotFoundRoute extends AppError {
  readonly status = 404;
  readonly title = 'Not found';
  constructor(method: string, path: string) {
    super('route_not_found', `No route ${method} ${path}.`);
  }
}

function registerRoute(app: FastifyInstance, deps: HttpAppDeps, route: AnyRouteSpec): void {
  app.route({
    method: route.method,
    url: route.url,
    bodyLimit: route.bodyLimit,
    config: { rule: route.rule },
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
  deps: HttpAppDeps,
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
    if (!route.rawBody.includes(type) || typeof rawBody !== 'string') {
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
    ...nulViolations(rawBody, 'body'),
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
