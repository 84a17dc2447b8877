import { ForbiddenError } from '../errors.js';
import type { Scope } from './permissions.js';

/**
 * The token is valid but its `scope` claim lacks what the call needs (RFC 6750 §3.1). Answered
 * HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<needed>"` on REST and
 * on the MCP endpoint, so an MCP client can step up its authorization.
 */
export class InsufficientScopeError extends ForbiddenError {
  constructor(readonly scope: Scope) {
    super('insufficient_scope', `The token's scope does not include ${scope}, which this call needs.`, {
      details: { required_scope: scope },
      hint: `Obtain a token with scope "${scope}".`,
    });
  }
}
