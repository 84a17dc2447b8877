import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Request ids must be unique across replicas and restarts, not unguessable (they are echoed to the
 * caller and logged). A random prefix per process plus a counter gives that; reading random bytes
 * from OpenSSL per request was a visible share of a cheap MCP call's CPU.
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
