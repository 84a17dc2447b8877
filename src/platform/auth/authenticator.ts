import { timingSafeEqual, createHash } from 'node:crypto';
import { UnauthorizedError } from '../errors.js';
import { OPERATOR, type Actor } from './actor.js';

/** Turns the Authorization header into an Actor, or throws UnauthorizedError. */
export interface Authenticator {
  readonly mode: 'disabled' | 'static' | 'oauth';
  authenticate(authorization: string | undefined): Promise<Actor>;
}

export class DisabledAuthenticator implements Authenticator {
  readonly mode = 'disabled' as const;
  async authenticate(): Promise<Actor> {
    return OPERATOR;
  }
}

export function bearerToken(authorization: string | undefined): string {
  if (!authorization)
    throw new UnauthorizedError('missing_token', 'An Authorization: Bearer <token> header is required.');
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  if (!match)
    throw new UnauthorizedError('malformed_authorization', 'The Authorization header must be "Bearer <token>".');
  return match[1]!;
}

/** One shared token for QA and development; the caller is the operator. */
export class StaticTokenAuthenticator implements Authenticator {
  readonly mode = 'static' as const;
  private readonly expected: Buffer;
  constructor(token: string) {
    // Comparing digests keeps the comparison constant-time even when lengths differ.
    this.expected = createHash('sha256').update(token).digest();
  }
  async authenticate(authorization: string | undefined): Promise<Actor> {
    const token = bearerToken(authorization);
    const given = createHash('sha256').update(token).digest();
    if (!timingSafeEqual(given, this.expected))
      throw new UnauthorizedError('invalid_token', 'The bearer token is not valid.');
    return OPERATOR;
  }
}
