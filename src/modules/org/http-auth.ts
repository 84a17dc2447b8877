import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Actor } from '../../platform/auth/actor.js';
import {
  DisabledAuthenticator,
  StaticTokenAuthenticator,
  type Authenticator,
} from '../../platform/auth/authenticator.js';
import { InsufficientScopeError } from '../../platform/auth/errors.js';
import { assertMcpCallScopes } from '../../platform/auth/mcp-scope.js';
import { OAuthAuthenticator } from '../../platform/auth/oauth.js';
import { scopeFor, type Permission } from '../../platform/auth/permissions.js';
import { wellKnownRoutes } from '../../platform/auth/well-known.js';
import type { AuthorizableRequest } from '../../platform/http/gate.js';
import { createPublicUrls } from '../../platform/http/public-url.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { UnauthorizedError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { OrgServices } from './org.services.js';

const MCP_PATHS = /^\/(mcp|sse|messages)(\/|\?|$)/;
/** What a 401 on the MCP endpoint asks for: enough to connect, list and read (step-up adds more). */
const MCP_BASE_SCOPE = 'context.read data.read';

export interface HttpAuth {
  authenticator: Authenticator;
  challenge(request: FastifyRequest, error: UnauthorizedError | InsufficientScopeError): string;
  onAuthenticated(actor: Actor, request: AuthorizableRequest): Promise<void>;
  routes: ReturnType<typeof wellKnownRoutes>;
}

function buildAuthenticator(config: Config, org: OrgServices, clock: Clock, log: Logger): Authenticator {
  if (config.authMode === 'static') return new StaticTokenAuthenticator(config.staticToken!);
  if (config.authMode === 'oauth') {
    return new OAuthAuthenticator({
      issuer: config.oauthIssuer!,
      audience: config.oauthAudience,
      jwksUrl: config.oauthJwksUrl,
      publicKeyPem: config.oauthPublicKey,
      members: org.members,
      clock,
      log,
    });
  }
  return new DisabledAuthenticator();
}

/**
 * Everything authentication adds to the HTTP app: the authenticator for the mode, the
 * WWW-Authenticate challenge, the per-identity rate limit and MCP call scopes after
 * authentication, the RFC 9728 routes; and the ORG_OWNER_SUBJECT bootstrap.
 */
export async function createHttpAuth(deps: {
  config: Config;
  org: OrgServices;
  clock: Clock;
  log: Logger;
  systemContext: RequestContext;
  toolPermission(name: string): Permission | undefined;
  override?: Authenticator;
}): Promise<HttpAuth> {
  const { config, org } = deps;
  const authenticator = deps.override ?? buildAuthenticator(config, org, deps.clock, deps.log);
  if (authenticator instanceof OAuthAuthenticator) await authenticator.ready();
  if (config.orgOwnerSubject) {
    const result = await org.members.ensureOwner(deps.systemContext, config.orgOwnerSubject);
    if (result.created || result.promoted)
      deps.log.info({ subject: config.orgOwnerSubject, ...result }, 'ORG_OWNER_SUBJECT is an owner');
  }
  const urls = createPublicUrls(config);
  return {
    authenticator,
    routes: wellKnownRoutes(config, urls),
    challenge(request, error) {
      const mcp = MCP_PATHS.test(request.url);
      const parts = [
        `resource_metadata="${urls.base(request.raw)}/.well-known/oauth-protected-resource${mcp ? '/mcp' : ''}"`,
      ];
      if (error instanceof InsufficientScopeError)
        return `Bearer error="insufficient_scope", scope="${error.scope}", ${parts[0]}`;
      const rule = request.routeOptions.config?.rule;
      parts.push(`scope="${mcp || !rule || !('permission' in rule) ? MCP_BASE_SCOPE : scopeFor(rule.permission)}"`);
      // RFC 6750 §3.1: no error code when the request carried no credentials at all.
      if (error.code !== 'missing_token')
        parts.push(`error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`);
      return `Bearer realm="context-hub", ${parts.join(', ')}`;
    },
    async onAuthenticated(actor, request) {
      if (authenticator.mode !== 'disabled') await org.rateLimiter.check(actor);
      if (MCP_PATHS.test(request.url)) assertMcpCallScopes(actor, request.body, deps.toolPermission);
    },
  };
}
