import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { PublicUrls } from '../http/public-url.js';
import { defineRoute } from '../http/route.js';
import { SCOPES } from './permissions.js';

function metadata(request: FastifyRequest, config: Config, urls: PublicUrls, path: string) {
  return {
    // What clients compare with the URL they connected to and send as the token's resource
    // indicator: the public URL (PUBLIC_BASE_URL or a trusted proxy's), never the internal one.
    resource: `${urls.base(request.raw)}${path}`,
    ...(config.authMode === 'oauth' && config.oauthIssuer ? { authorization_servers: [config.oauthIssuer] } : {}),
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Context Hub',
  };
}

/**
 * RFC 9728 protected-resource metadata, as the MCP authorization spec asks: where to get a token
 * (OAUTH_ISSUER) and which scopes exist. Public, like every /.well-known path: a client reads it before it has a token.
 */
export function wellKnownRoutes(config: Config, urls: PublicUrls) {
  return [
    defineRoute({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource',
      summary: 'OAuth protected-resource metadata (RFC 9728) for the REST API',
      tags: ['auth'],
      rule: { public: true },
      handler: async ({ request }) => metadata(request, config, urls, ''),
    }),
    defineRoute({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
      summary: 'OAuth protected-resource metadata (RFC 9728) for the MCP endpoint',
      tags: ['auth'],
      rule: { public: true },
      handler: async ({ request }) => metadata(request, config, urls, '/mcp'),
    }),
  ];
}
