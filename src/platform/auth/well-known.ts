import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { defineRoute } from '../http/route.js';
import { SCOPES } from './permissions.js';

/** The origin clients reached us at (Host as sent; Host validation already vetted it). */
export function publicBase(request: FastifyRequest, config: Pick<Config, 'host' | 'port'>): string {
  return `${request.protocol}://${request.headers.host ?? `${config.host}:${config.port}`}`;
}

function metadata(request: FastifyRequest, config: Config, path: string) {
  return {
    resource: `${publicBase(request, config)}${path}`,
    ...(config.authMode === 'oauth' && config.oauthIssuer ? { authorization_servers: [config.oauthIssuer] } : {}),
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Context Hub',
  };
}

/**
 * RFC 9728 protected-resource metadata, as the MCP authorization spec asks: where to get a token
 * (OAUTH_ISSUER) and which scopes exist. Public, like every /.well-known path (DESIGN §7).
 */
export function wellKnownRoutes(config: Config) {
  return [
    defineRoute({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource',
      summary: 'OAuth protected-resource metadata (RFC 9728) for the REST API',
      tags: ['auth'],
      rule: { public: true },
      handler: async ({ request }) => metadata(request, config, ''),
    }),
    defineRoute({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
      summary: 'OAuth protected-resource metadata (RFC 9728) for the MCP endpoint',
      tags: ['auth'],
      rule: { public: true },
      handler: async ({ request }) => metadata(request, config, '/mcp'),
    }),
  ];
}
