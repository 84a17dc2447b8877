import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../platform/errors.js';
import { sendProblem } from '../platform/http/error-mapping.js';

/** The MCP endpoints a browser client calls. */
export const MCP_BROWSER_PATHS = ['/mcp', '/sse', '/messages'] as const;

/** What a browser page may send: the MCP headers of every era, and a bearer token. */
const ALLOWED_REQUEST_HEADERS =
  'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id';
/** What a browser page may read: the session id to send back, and what to do on 401. */
const EXPOSED_RESPONSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, x-request-id';

/** A page (or anything sending an Origin) that ALLOWED_ORIGINS does not name. */
export function originForbidden(): ForbiddenError {
  return new ForbiddenError(
    'origin_forbidden',
    'This Origin is not allowed to call the MCP endpoint (see ALLOWED_ORIGINS).',
  );
}

/** The CORS headers of an answer to a page of an allowed `origin` (ALLOWED_ORIGINS). */
export function corsResponseHeaders(origin: string): [string, string][] {
  return [
    ['access-control-allow-origin', origin],
    ['access-control-expose-headers', EXPOSED_RESPONSE_HEADERS],
    ['vary', 'Origin'],
  ];
}

/**
 * ALLOWED_ORIGINS names the browser pages that may use the MCP endpoints, so those pages get what
 * a browser needs to do so: an answer to the preflight (OPTIONS, which carries no credentials and
 * so is public) and CORS headers on every answer, the session id among the headers it may read.
 * A foreign Origin is refused (403) by the preflight here and by the gate on the request itself.
 * Credentials are bearer tokens, never cookies, so no Allow-Credentials.
 */
export function registerMcpCors(app: FastifyInstance, originAllowed: (origin: string | undefined) => boolean): void {
  const paths = new Set<string>(MCP_BROWSER_PATHS);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (
      typeof origin !== 'string' ||
      origin === '' ||
      !paths.has(request.url.split('?', 1)[0]!) ||
      !originAllowed(origin)
    )
      return;
    // On the raw response, so hijacked answers (event streams) carry them too.
    for (const [name, value] of corsResponseHeaders(origin)) reply.raw.setHeader(name, value);
  });
  for (const url of MCP_BROWSER_PATHS) {
    app.options(url, { config: { rule: { public: true } } }, async (request, reply) => {
      const origin = request.headers.origin;
      if (typeof origin === 'string' && origin !== '' && !originAllowed(origin)) {
        return sendProblem(reply, originForbidden());
      }
      return reply
        .code(204)
        .header(
          'access-control-allow-methods',
          url === '/mcp' ? 'GET, POST, DELETE, OPTIONS' : url === '/sse' ? 'GET, OPTIONS' : 'POST, OPTIONS',
        )
        .header('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    });
  }
}
