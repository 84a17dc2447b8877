import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { InsufficientScopeError } from '../auth/errors.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { RequestContext } from '../context/request-context.js';
import { ForbiddenError, type UnauthorizedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { installBodyParsers } from './body-parsing.js';
import { createCrossSiteGuard } from './cross-site.js';
import { frameworkErrors, installErrorMapping, sendProblem } from './error-mapping.js';
import { type FastPath, genRequestId, replayHandedOnBody, serverWithFastPath } from './fast-path.js';
import { authorizeRequest, type GateDeps } from './gate.js';
import { createHostValidator } from './host-validation.js';
import { MAX_PATH_PARAM_CHARS, REST_BODY_LIMIT } from './limits.js';
import { buildOpenApiDocument } from './openapi.js';
import { createPublicUrls } from './public-url.js';
import type { AnyRouteSpec } from './route.js';
import { registerRoute, trackRouteRules } from './routes.js';

export { MALFORMED_JSON } from './body-parsing.js';
export { JSON_MEDIA_TYPES, type OriginPolicy, SAFE_METHODS } from './cross-site.js';
export { sendProblem } from './error-mapping.js';
export type { FastPath } from './fast-path.js';
export { type AuthorizableRequest, authorizeRequest, requestContext } from './gate.js';
export { MCP_BODY_LIMIT, REST_BODY_LIMIT } from './limits.js';
export { type RegisteredRoute, registeredRoutes } from './routes.js';

function refuseFastifySchemas(): never {
  throw new Error('Fastify route schemas are not used here: validate with zod through defineRoute');
}

/** Paths exempt from Host validation so platform probes work: they call by IP or an internal name. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** A request whose answer is ready, as the beforeSend hook of HttpAppDeps sees it. */
export interface AnsweredRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** The matched route's pattern (`/api/projects/:id`), when a route matched. */
  routeUrl: string | undefined;
  statusCode: number;
  /** The route changes nothing although its method is a write's (RouteSpec.readOnly). */
  readOnly: boolean;
  /** The authenticated caller, when the route authenticated one. */
  actor: Actor | undefined;
  requestId: string;
  log: RequestContext['log'];
}

export interface HttpAppDeps extends GateDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  version: string;
  /** WWW-Authenticate value for 401 answers and 403 insufficient_scope answers. */
  challenge(request: FastifyRequest, error: UnauthorizedError | InsufficientScopeError): string;
  /**
   * Called once a request's answer is ready and before it is sent (the REST audit fallback): the
   * caller that hears of a write can read its audit entry at once.
   */
  beforeSend?: (request: AnsweredRequest) => Promise<void>;
}

export interface HttpAppOptions {
  /** Answers the plain requests of one hot route below Fastify (the MCP fast path); absent: off. */
  fastPath?: FastPath;
}

export function buildHttpApp(deps: HttpAppDeps, routes: AnyRouteSpec[], options: HttpAppOptions = {}): FastifyInstance {
  const hostAllowed = createHostValidator(deps.config);
  let closing = false;
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: REST_BODY_LIMIT,
    // request.ip (logs) and request.protocol follow X-Forwarded-* only from TRUSTED_PROXIES.
    trustProxy: deps.config.trustedProxies.length > 0 ? [...deps.config.trustedProxies] : false,
    genReqId: genRequestId,
    serverFactory: serverWithFastPath({
      fastPath: options.fastPath,
      log: deps.logger,
      hostAllowed,
      closing: () => closing,
    }),
    // Path parameters are checked by each route's zod schema (a subject may be 255 characters,
    // several times that once percent-encoded); the router's default limit of 100 would answer a
    // valid 101-character business key with its own 414.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    frameworkErrors,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Requests are validated by each route's zod schema (defineRoute), never by Fastify JSON schemas.
    // Fastify otherwise loads Ajv and fast-json-stringify at construction, a visible share of every start.
    schemaController: {
      compilersFactory: { buildValidator: refuseFastifySchemas, buildSerializer: refuseFastifySchemas },
    },
  });
  app.addHook('preClose', async () => {
    closing = true;
  });

  const publicUrls = createPublicUrls(deps.config);
  trackRouteRules(app, createCrossSiteGuard(deps.config, publicUrls));
  const fastPath = options.fastPath;
  if (fastPath) {
    app.addHook('onRoute', (route) => {
      if (route.url === fastPath.url) replayHandedOnBody(route);
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const path = request.url.split('?')[0]!;
    // API answers carry project content: never kept by a browser or a shared cache. On the raw
    // response, so hijacked answers get it too; a route that sets its own value wins.
    if (path.startsWith('/api/')) reply.raw.setHeader('cache-control', 'no-store');
    if (!PROBE_PATHS.has(path) && !hostAllowed(request.headers.host)) {
      return sendProblem(
        reply,
        new ForbiddenError('host_forbidden', 'The Host header is not allowed for this server.'),
      );
    }
  });

  const beforeSend = deps.beforeSend;
  if (beforeSend) {
    // onSend, not onResponse: an entry written after the answer raced the caller's next read.
    app.addHook('onSend', async (request, reply, payload) => {
      await beforeSend({
        method: request.method,
        path: request.url.split('?')[0]!,
        routeUrl: request.routeOptions.url,
        statusCode: reply.statusCode,
        readOnly: request.routeOptions.config?.readOnly === true,
        actor: request.actor,
        requestId: String(request.id),
        log: request.log,
      });
      return payload;
    });
  }

  installBodyParsers(app);
  installErrorMapping(app, deps.challenge);

  for (const route of routes) registerRoute(app, deps, route);

  const openApiRoutes = routes;
  app.get('/api/openapi.json', { config: { rule: { permission: 'context.read' } } }, async (request) => {
    await authorizeRequest(request, deps, { permission: 'context.read' });
    return buildOpenApiDocument(openApiRoutes, { version: deps.version, serverUrl: publicUrls.base(request.raw) });
  });

  return app;
}
