import { errors, importSPKI, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type KeyObject } from 'jose';
import type { Clock } from '../clock.js';
import { AppError, ConfigError, UnauthorizedError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Actor } from './actor.js';
import { bearerToken, type Authenticator } from './authenticator.js';
import { JwksCache } from './jwks.js';
import { higherRole, SCOPES, type Role } from './permissions.js';

/** Clock skew tolerated on exp/nbf/iat: a minute covers drifting clocks and keeps expiry meaningful. */
export const CLOCK_SKEW_SECONDS = 60;

/** What the organization knows about a subject (org_members + grants). */
export interface MemberRecord {
  role: Role;
  email?: string;
  grants: ReadonlyMap<string, Role>;
}

export interface MemberDirectory {
  lookup(subject: string): Promise<MemberRecord | undefined>;
}

export interface OAuthOptions {
  issuer: string;
  /** A token's `aud` must name at least one of these (the /mcp and the REST resource differ). */
  audience: string[];
  jwksUrl?: string;
  publicKeyPem?: string;
  members: MemberDirectory;
  clock: Clock;
  log: Logger;
}

const PROJECT_ID = /^proj_[a-z0-9][a-z0-9_-]{0,62}$/;

function invalid(reason: string, message: string): UnauthorizedError {
  return new UnauthorizedError('invalid_token', message, { details: { reason } });
}

/** jose's verdicts → one 401 code with a reason a client can act on (never the token itself). */
function toUnauthorized(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof errors.JWTExpired) return invalid('expired', 'The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    if (claim === 'iss') return invalid('issuer', 'The token was not issued by the configured issuer.');
    if (claim === 'aud') return invalid('audience', 'The token is not meant for this service (audience).');
    if (claim === 'nbf') return invalid('not_yet_valid', 'The token is not valid yet.');
    return invalid('claims', `The token's ${claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return invalid('algorithm', 'Only RS256-signed tokens are accepted.');
  if (error instanceof errors.JWKSNoMatchingKey) return invalid('unknown_key', "The token's signing key is unknown.");
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return invalid('signature', 'The token signature does not verify.');
  return invalid('malformed', 'The bearer token is not a valid JWT.');
}

/** The `scope` claim (space-separated, or an array as some issuers send `scp`), narrowed to ours. */
export function scopesOf(payload: JWTPayload): Set<string> | undefined {
  const raw = payload.scope ?? payload.scp;
  if (raw === undefined) return undefined;
  const list = Array.isArray(raw)
    ? raw.filter((s): s is string => typeof s === 'string')
    : typeof raw === 'string'
      ? raw.split(/\s+/)
      : [];
  return new Set(list.filter((s) => (SCOPES as readonly string[]).includes(s)));
}

/**
 * The Actor for a verified token. Owners and admins act on every project; other identities on
 * their grants plus the token's `projects` claim, which grants viewer unless the member record
 * (its role or a grant) gives more. A subject without a member record gets just the claim grants.
 */
export function actorFromClaims(payload: JWTPayload, member: MemberRecord | undefined): Actor {
  const subject = payload.sub!;
  const email = typeof payload.email === 'string' ? payload.email : member?.email;
  const scopes = scopesOf(payload);
  const base = {
    subject,
    ...(email ? { email } : {}),
    kind: member ? ('member' as const) : ('token' as const),
    ...(scopes ? { scopes } : {}),
  };
  if (member && (member.role === 'owner' || member.role === 'admin'))
    return { ...base, role: member.role, projects: 'all' };
  const role: Role = member?.role ?? 'viewer';
  const projects = new Map<string, Role>(member?.grants ?? []);
  const claimed = Array.isArray(payload.projects) ? payload.projects : [];
  for (const id of claimed) {
    if (typeof id !== 'string' || !PROJECT_ID.test(id)) continue;
    projects.set(id, higherRole(projects.get(id) ?? 'viewer', role));
  }
  return { ...base, role, projects };
}

/** SERVICE_AUTH_MODE=oauth: RS256 JWTs from OAUTH_ISSUER for one of OAUTH_AUDIENCE, keys from a JWKS or a PEM. */
export class OAuthAuthenticator implements Authenticator {
  readonly mode = 'oauth' as const;
  readonly jwks: JwksCache | undefined;
  private readonly staticKey: Promise<KeyObject | CryptoKey> | undefined;

  constructor(private readonly options: OAuthOptions) {
    if (options.jwksUrl) this.jwks = new JwksCache({ url: options.jwksUrl, clock: options.clock, log: options.log });
    // importSPKI with RS256 refuses a non-RSA key, so an EC PEM cannot be configured by mistake.
    else if (options.publicKeyPem) {
      this.staticKey = importSPKI(options.publicKeyPem.replace(/\\n/g, '\n'), 'RS256');
      // Surfaced by ready() at start; this keeps an early rejection from being reported as unhandled.
      this.staticKey.catch(() => undefined);
    } else throw new Error('OAuthAuthenticator needs OAUTH_JWKS_URL or OAUTH_PUBLIC_KEY');
  }

  /** Fails start on a PEM that is not an RSA public key (a clear line instead of 401s on every call). */
  async ready(): Promise<void> {
    try {
      await this.staticKey;
    } catch {
      throw new ConfigError(
        'OAUTH_PUBLIC_KEY',
        this.options.publicKeyPem,
        'an RSA public key in PEM (SPKI, "-----BEGIN PUBLIC KEY-----") form; only RS256 is accepted',
      );
    }
  }

  async authenticate(authorization: string | undefined): Promise<Actor> {
    const token = bearerToken(authorization);
    const payload = await this.verify(token);
    if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255)
      throw invalid('claims', 'The token has no subject (sub).');
    return actorFromClaims(payload, await this.options.members.lookup(payload.sub));
  }

  private async verify(token: string): Promise<JWTPayload> {
    const common = {
      algorithms: ['RS256'],
      issuer: this.options.issuer,
      audience: this.options.audience,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: this.options.clock.now(),
      requiredClaims: ['exp', 'sub'],
    };
    try {
      if (this.staticKey) return (await jwtVerify(token, await this.staticKey, common)).payload;
      return (await jwtVerify(token, this.jwks!.resolver as JWTVerifyGetKey, common)).payload;
    } catch (error) {
      if (error instanceof errors.JWKSMultipleMatchingKeys) return this.verifyWithCandidates(token, error, common);
      throw toUnauthorized(error);
    }
  }

  /** A token without `kid` against a JWKS of several keys: try each candidate (jose's documented pattern). */
  private async verifyWithCandidates(
    token: string,
    error: errors.JWKSMultipleMatchingKeys,
    common: Parameters<typeof jwtVerify>[2],
  ): Promise<JWTPayload> {
    // jose attaches the candidate keys as an async iterator to this error.
    const candidates = error as unknown as AsyncIterable<CryptoKey>;
    let last: unknown = error;
    for await (const key of candidates) {
      try {
        return (await jwtVerify(token, key, common)).payload;
      } catch (e) {
        last = e;
        if (!(e instanceof errors.JWSSignatureVerificationFailed)) break;
      }
    }
    throw toUnauthorized(
      last instanceof errors.JWKSMultipleMatchingKeys ? new errors.JWSSignatureVerificationFailed() : last,
    );
  }
}
