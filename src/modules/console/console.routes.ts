import type { FastifyReply, FastifyRequest } from 'fastify';
import { SCOPES } from '../../platform/auth/permissions.js';
import type { Config } from '../../platform/config.js';
import type { PublicUrls } from '../../platform/http/public-url.js';
import { defineRoute } from '../../platform/http/route.js';
import type { ConsoleAssets } from './console.assets.js';
import { ConsoleConfigOutput, ConsolePathParams } from './console.schemas.js';

/**
 * Headers of every /console/* answer: scripts and styles only from the service itself (no inline
 * script), API calls to the service and, in oauth mode, to the issuer's origin (discovery and the
 * token endpoint); never framed; no referrer leaves the page (an OAuth code is in the callback URL).
 */
export function consoleSecurityHeaders(config: Pick<Config, 'oauthIssuer' | 'authMode'>): Record<string, string> {
  const issuer = config.authMode === 'oauth' && config.oauthIssuer ? ` ${new URL(config.oauthIssuer).origin}` : '';
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self'${issuer}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/** The scopes the console asks for: every scope; the member's role still bounds what it may do. */
const CONSOLE_SCOPES = ['openid', ...SCOPES];

/**
 * The console: a single-page app on the public REST API. Its shell and assets are
 * public (the data comes from the API with the user's own credentials); every /console/* path
 * answers with the shell so deep links survive a reload.
 */
export function consoleRoutes(config: Config, urls: PublicUrls, assets: ConsoleAssets) {
  const headers = consoleSecurityHeaders(config);
  const send = (request: FastifyRequest, reply: FastifyReply, rel: string) => {
    const asset = assets.file(rel) ?? (rel.startsWith('assets/') ? undefined : assets.shell);
    reply.headers(headers);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    let body = asset.body;
    // Compressed on the first request that can take it (console.assets.ts).
    let gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) ? asset.gzip : undefined;
    const prefix = urls.pathPrefix(request.raw);
    if (asset === assets.shell && prefix) {
      // Behind a proxy's path prefix the shell's absolute asset URLs gain that prefix.
      body = Buffer.from(body.toString('utf8').replaceAll('"/console/', `"${prefix}/console/`));
      gzip = undefined;
    }
    reply.type(asset.type).header('vary', 'accept-encoding');
    reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (gzip) {
      return reply.header('content-encoding', 'gzip').send(gzip);
    }
    return reply.send(body);
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/api/console/config',
      summary: "What the console needs to sign in: the service's auth mode and, in oauth mode, issuer and client",
      tags: ['console'],
      rule: { public: true },
      response: ConsoleConfigOutput,
      handler: async ({ request }): Promise<ConsoleConfigOutput> => ({
        auth_mode: config.authMode,
        oauth:
          config.authMode === 'oauth' && config.oauthIssuer
            ? {
                issuer: config.oauthIssuer,
                client_id: config.consoleOauthClientId ?? null,
                scopes: CONSOLE_SCOPES,
                resource: urls.base(request.raw),
              }
            : null,
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console',
      summary: 'The console (redirects to /console/)',
      tags: ['console'],
      rule: { public: true },
      openapi: false,
      handler: async ({ request, reply }) =>
        reply.headers(headers).redirect(`${urls.pathPrefix(request.raw)}/console/`, 308),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/*',
      summary: 'The console app: its assets, and its shell for every other path (deep links)',
      tags: ['console'],
      rule: { public: true },
      params: ConsolePathParams,
      openapi: false,
      handler: async ({ request, reply, params }) => send(request, reply, params['*'] || 'index.html'),
    }),
  ];
}
