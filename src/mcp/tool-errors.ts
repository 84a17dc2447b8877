import { randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { AppError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';

/**
 * A tool failure as an `isError` result: the text starts with the stable code, says what went
 * wrong and what to do next; `_meta["service.error"]` carries the same for programs.
 */
export function errorResult(code: string, message: string, hint?: string, error?: AppError): CallToolResult {
  const violations = error instanceof ValidationError ? error.errors : undefined;
  const lines = [`${code}: ${message}`];
  if (violations && violations.length > 1)
    for (const v of violations.slice(0, 10)) lines.push(`- ${v.path || '(input)'}: ${v.message}`);
  if (hint) lines.push(`Next: ${hint}`);
  else if (error instanceof ValidationError) lines.push('Next: fix the arguments named above and call again.');
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    _meta: {
      'service.error': { code, message, ...(violations ? { errors: violations } : {}), ...(error?.details ?? {}) },
    },
  };
}

/** A call to a tool the caller's role does not allow, on every path (SDK servers and the fast path). */
export function roleForbidden(tool: string, permission: string): CallToolResult {
  return errorResult(
    'role_forbidden',
    `Your role does not allow ${tool} (it needs ${permission}).`,
    'Ask an admin for a role that allows it, or use a tool from tools/list.',
  );
}

/**
 * A failed `resources/read` as the protocol error the client can act on. An object the URI names
 * that does not exist is the spec's resource-not-found (-32602 with `data: {uri}`, SEP-2164), the
 * same answer the SDK gives a URI no template matches; a refused or invalid read is -32602 with our
 * stable code in `data`. Anything unexpected is logged under an incident id and answered without
 * its message (thrown errors otherwise reach the client verbatim as -32603).
 */
export function resourceReadError(uri: string, error: unknown, log: Logger): ProtocolError {
  if (error instanceof NotFoundError) return new ResourceNotFoundError(uri, error.message);
  if (error instanceof AppError) {
    const data = { uri, code: error.code, ...(error instanceof ValidationError ? { errors: error.errors } : {}) };
    const code =
      error.status < 500 && error.status !== 429 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
    return new ProtocolError(code, error.hint ? `${error.message} ${error.hint}` : error.message, data);
  }
  const incident = randomUUID();
  log.error({ err: error, incident, uri }, 'resource read failed');
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `The resource could not be read (incident ${incident}). Retry once; if it fails again, report the incident id.`,
    { uri },
  );
}
