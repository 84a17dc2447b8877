import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { type AppError, ForbiddenError, UnsupportedMediaTypeError } from '../errors.js';
import { sendWhileDraining } from './body-limits.js';
import { problemFromError } from './problem.js';
import type { PublicUrls } from './public-url.js';

/** Methods that change nothing (RFC 9110 safe methods): the only ones a page on another site may send. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a request body of a route that takes JSON may be sent as (an empty body needs no type). */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json'];

/**
 * Who decides which browser pages may send a state-changing request to a route:
 * - `service` (every route unless it says otherwise): pages of the service's own origin and the
 *   origins ALLOWED_ORIGINS names; checked here, before the body is read.
 * - `mcp`: the MCP endpoints, whose own gate checks Origin (ALLOWED_ORIGINS, else any loopback
 *   origin, for browser MCP clients on their own port; docs/auth.md says why). Only the media type
 *   is checked here.
 */
export type OriginPolicy = 'service' | 'mcp';

/** The media type of a Content-Type header, lowercased, without parameters; undefined when absent. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? undefined : type;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** `scheme://host[:port]` as the URL standard serializes it (default ports dropped), or undefined. */
function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export interface CrossSiteGuard {
  /** Why a browser page may not send this request, or undefined when it may. */
  refusal(req: IncomingMessage, accepts: readonly string[], policy: OriginPolicy): AppError | undefined;
}

/**
 * Cross-site request protection for every state-changing route. A page on another
 * origin can make a browser send a POST without asking first (a form, or fetch in no-cors mode
 * with a text/plain body); the browser then says where the page is from (Origin,
 * Sec-Fetch-Site). So a request whose Origin is neither the service's own (as the browser reached
 * it, or PUBLIC_BASE_URL) nor named in ALLOWED_ORIGINS is refused, as is one a browser marks as
 * sent from another site without an Origin; and a body must be of a type the route takes
 * (JSON unless it declares otherwise), never one a page can send without a CORS preflight.
 * Scripts and CLIs send no Origin and pass.
 */
export function createCrossSiteGuard(
  config: Pick<Config, 'allowedOrigins'>,
  urls: Pick<PublicUrls, 'base' | 'origin'>,
): CrossSiteGuard {
  // `*` opens /mcp to any page (ALLOWED_ORIGINS); it never opens the API's writes: those need names.
  const named = new Set((config.allowedOrigins ?? []).map(originOf).filter((o): o is string => o !== undefined));
  const originAllowed = (req: IncomingMessage, origin: string): boolean => {
    const normalized = originOf(origin);
    if (normalized === undefined) return false;
    return (
      named.has(normalized) || normalized === originOf(urls.origin(req)) || normalized === originOf(urls.base(req))
    );
  };
  return {
    refusal(req, accepts, policy) {
      const headers = req.headers;
      const origin = headers.origin;
      if (typeof origin === 'string') {
        if (policy === 'service' && !originAllowed(req, origin)) return crossSiteRefused(origin);
      } else {
        // A browser names the page's origin on every such request; without it, its word on the site.
        const site = headers['sec-fetch-site'];
        if (site === 'cross-site' || (policy === 'service' && site === 'same-site')) return crossSiteRefused(undefined);
      }
      const type = mediaTypeOf(headers['content-type']);
      if (type === undefined ? hasBody(headers) : !accepts.includes(type)) return unsupportedMediaType(accepts);
      return undefined;
    },
  };
}

export function crossSiteRefused(origin: string | undefined): ForbiddenError {
  const from = origin === undefined ? 'on another site' : `from ${origin.slice(0, 200)}`;
  return new ForbiddenError(
    'origin_forbidden',
    `Refused a state-changing request sent by a page ${from}: only the service's own pages and the ` +
      'origins ALLOWED_ORIGINS names may send one. Scripts and command-line tools send no Origin ' +
      'header and are not affected (docs/auth.md, "Cross-site requests").',
  );
}

export function unsupportedMediaType(accepts: readonly string[]): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(
    'unsupported_media_type',
    `Send the body as ${accepts.join(' or ')} (Content-Type), or send no body.`,
    { details: { accepted_media_types: [...accepts] } },
  );
}

/**
 * The onRequest hook of a state-changing route: refuses before the body is read, and answers in
 * full while the body is read and dropped, so a client still sending it reads the refusal.
 */
export function guardHook(guard: CrossSiteGuard, accepts: readonly string[], policy: OriginPolicy) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // A route may take safe methods too (/mcp: GET opens an event stream): those pass.
    if (SAFE_METHODS.has(request.method)) return;
    const refusal = guard.refusal(request.raw, accepts, policy);
    if (!refusal) return;
    const problem = problemFromError(refusal, String(request.id));
    return sendWhileDraining(reply, refusal.status, 'application/problem+json', JSON.stringify(problem));
  };
}
