import { ForbiddenError } from '../errors.js';
import { SCOPES, type Scope } from './permissions.js';

/**
 * The token is valid but its `scope` claim lacks what the call needs (RFC 6750 §3.1). Answered
 * HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<needed>"` on REST and
 * on the MCP endpoint, so an MCP client can step up its authorization.
 *
 * `needed` is every scope the request needs, granted ones included: a 2025-era client asks for
 * exactly the challenge's scopes, so naming only the missing one would get it a token that lacks
 * the rest (on /mcp, the context.read every request needs) and it would loop (2025-11-25
 * authorization spec, scope challenge handling).
 */
export class InsufficientScopeError extends ForbiddenError {
  /** The challenge's `scope` value: the needed scopes, space-separated, in SCOPES order. */
  readonly scope: string;

  constructor(needed: Iterable<Scope>, missing: Iterable<Scope> = needed) {
    const ordered = (set: Set<Scope>) => SCOPES.filter((s) => set.has(s));
    const all = ordered(new Set(needed));
    const lacking = ordered(new Set(missing));
    const scope = all.join(' ');
    super('insufficient_scope', `The token's scope does not include ${lacking.join(', ')}, which this call needs.`, {
      details: { required_scope: scope, missing_scope: lacking.join(' ') },
      hint: `Obtain a token with scope "${scope}".`,
    });
    this.scope = scope;
  }
}
