import type { Clock } from '../../platform/clock.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import {
  type OAuthSecrets,
  requestAccessToken,
  type AccessTokens,
  type OAuthSettings,
  ProviderError,
  type SourceOutbound,
} from '../providers/index.js';
import * as repo from './credentials.repo.js';
import type { SecretBox } from './secret-box.js';

/** A token is renewed this long before the expiry its endpoint announced (clock skew, a slow page). */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
/** A token whose endpoint said nothing about its lifetime is reused for this long. */
const UNSTATED_LIFETIME_MS = 30 * 60_000;

/**
 * Renewals in this process, one per connection at a time (the row lock covers other replicas on
 * PostgreSQL; an embedded store has one process). Keyed by the database, so every service built
 * in one process keeps its own.
 */
const inFlight = new WeakMap<Database, Map<string, Promise<unknown>>>();

function serialized<T>(db: Database, key: string, work: () => Promise<T>): Promise<T> {
  let map = inFlight.get(db);
  if (!map) {
    map = new Map();
    inFlight.set(db, map);
  }
  const before = map.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const tail = mine.catch(() => undefined);
  map.set(key, tail);
  void tail.then(() => {
    if (map.get(key) === tail) map.delete(key);
  });
  return mine;
}

/**
 * The access tokens of a connection with its own token endpoint. The token is kept encrypted on
 * the row and reused by every run until shortly before `expires_in`; a renewal takes the row's
 * lock, reads the refresh token under it (a run that waited sees the one the previous renewal
 * stored), asks the endpoint, and stores the new access token and a rotated refresh token in the
 * same transaction, so two runs never spend one refresh token twice (invalid_grant).
 */
export class StoredTokens implements AccessTokens {
  readonly source = 'stored' as const;
  private token: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      box: SecretBox;
      clock: Clock;
      outbound: SourceOutbound;
      signal?: AbortSignal;
    },
    private readonly key: { project_id: string; connection_ref_id: string },
    private readonly settings: OAuthSettings,
  ) {}

  async current(): Promise<string> {
    if (this.token && this.fresh(this.token.expiresAt)) return this.token.value;
    const row = await repo.findConnection(this.deps.db, this.key.project_id, this.key.connection_ref_id);
    const stored = row && this.storedToken(row);
    if (stored) {
      this.token = stored;
      return stored.value;
    }
    return this.renewNow(undefined);
  }

  renew(rejected: string): Promise<string> {
    return this.renewNow(rejected);
  }

  check(): Promise<string> {
    return this.renewNow(null);
  }

  private fresh(expiresAt: number): boolean {
    return expiresAt - TOKEN_EXPIRY_MARGIN_MS > this.deps.clock.now().getTime();
  }

  private storedToken(row: repo.ConnectionRow): { value: string; expiresAt: number } | undefined {
    if (!row.access_token_ciphertext || !row.token_expires_at) return undefined;
    const expiresAt = new Date(row.token_expires_at).getTime();
    if (!this.fresh(expiresAt)) return undefined;
    const value = this.deps.box.open(row.access_token_ciphertext).access_token;
    return typeof value === 'string' ? { value, expiresAt } : undefined;
  }

  /**
   * `rejected`: the token the source refused (another run's newer one is taken instead of asking);
   * undefined: none is stored or it expired; null: verify asks for one whatever is stored.
   */
  private renewNow(rejected: string | null | undefined): Promise<string> {
    const { db } = this.deps;
    return serialized(db, `${this.key.project_id}\u0000${this.key.connection_ref_id}`, async () => {
      try {
        // On PostgreSQL the row stays locked over the token request (other replicas wait on it);
        // the embedded store's one process is serialized above, without holding its one connection.
        const token =
          db.kind === 'postgres'
            ? await db.transaction((tx) => this.renewIn(tx, rejected, true))
            : await this.renewIn(db, rejected, false);
        this.token = token;
        return token.value;
      } catch (error) {
        if (error instanceof ProviderError)
          await repo
            .recordTokenError(db, this.key, error.message, error.status === 'expired', this.deps.clock.now())
            .catch(() => undefined);
        throw error;
      }
    });
  }

  private async renewIn(
    tx: SqlExecutor,
    rejected: string | null | undefined,
    lock: boolean,
  ): Promise<{ value: string; expiresAt: number }> {
    const row = await repo.lockConnection(tx, this.key.project_id, this.key.connection_ref_id, lock);
    if (!row) throw new ProviderError('the connection no longer exists');
    if (rejected !== null) {
      const stored = this.storedToken(row);
      // Renewed by another run while this one waited: use that token rather than spend the refresh token again.
      if (stored && stored.value !== rejected) return stored;
    }
    const secrets = this.deps.box.open(row.secrets_ciphertext) as unknown as OAuthSecrets;
    const issued = await requestAccessToken(this.settings, secrets, this.deps);
    const now = this.deps.clock.now();
    const expiresAt = now.getTime() + (issued.expires_in ? issued.expires_in * 1000 : UNSTATED_LIFETIME_MS);
    const rotated =
      issued.refresh_token && issued.refresh_token !== secrets.refresh_token
        ? this.deps.box.seal({ ...secrets, refresh_token: issued.refresh_token })
        : null;
    await repo.storeToken(tx, this.key, {
      access: this.deps.box.seal({ access_token: issued.access_token }),
      expiresAt: new Date(expiresAt),
      secrets: rotated,
      now,
    });
    return { value: issued.access_token, expiresAt };
  }
}
