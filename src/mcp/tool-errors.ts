import type { CallToolResult } from '@modelcontextprotocol/server';
import { AppError, ValidationError } from '../platform/errors.js';

/**
 * A tool failure as an `isError` result: the text starts with the stable code, says what went
 * wrong and what to do next; `_meta["service.error"]` carries the same for programs.
 */
export function errorResult(code: string, message: string, hint?: string, error?: AppError): CallToolResult {
  const violations = error instanceof ValidationError ? error.errors : undefined;
  const lines = [`${code}: ${message}`];
  if (violations && violations.length > 1) for (const v of violations.slice(0, 10)) lines.push(`- ${v.path || '(input)'}: ${v.message}`);
  if (hint) lines.push(`Next: ${hint}`);
  else if (error instanceof ValidationError) lines.push('Next: fix the arguments named above and call again.');
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    _meta: { 'service.error': { code, message, ...(violations ? { errors: violations } : {}), ...(error?.details ?? {}) } },
  };
}
