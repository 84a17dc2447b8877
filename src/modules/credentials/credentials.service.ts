import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, UnauthorizedError, ValidationError, type FieldViolation } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { violationsOf } from '../../platform/validation.js';
import {
  providerFor,
  PROVIDER_NAMES,
  type AccessTokens,
  type AnyProvider,
  type ProviderContext,
  ProviderError,
  type SourceOutbound,
  type VerifyOutcome,
} from '../providers/index.js';
import { staticHostRefusal, staticRefusal } from '../../platform/outbound/address-policy.js';
import { realSleep, type Sleeper } from '../../platform/outbound/request-retry.js';
import type { ProjectsService } from '../projects/index.js';
import * as repo from './credentials.repo.js';
import type { UpsertConnectionInput, VerifyConnectionInput } from './credentials.schemas.js';
import { SecretBox } from './secret-box.js';
import { NangoClient, nangoSignatureValid, NangoTokens } from './nango.client.js';
import { StoredTokens } from './token-manager.js';

export class CredentialsService {
  readonly box: SecretBox;

  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly config: Config,
    /** The service's clock, for what no request carries (a webhook's time). */
    private readonly clock: Clock,
    /** How a retry waits: injected, so that a caller can bound or record the waits without sleeping. */
    private readonly sleep: Sleeper = realSleep,
  ) {
    this.box = new SecretBox(config);
  }

  /** The outbound policy and retry bounds every source request of a connection runs under. */
  get outbound(): SourceOutbound {
    return {
      policy: { allowPrivate: this.config.outboundAllowPrivateNetworks, setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' },
      retry: {
        maxTries: this.config.outboundRetryMaxTries,
        maxWaitMs: this.config.outboundRetryMaxSeconds * 1000,
        baseDelayMs: this.config.outboundRetryBaseMs,
      },
      sleep: this.sleep,
    };
  }

  private nango(clock: Clock, signal?: AbortSignal): NangoClient | undefined {
    const { nangoUrl, nangoSecretKey } = this.config;
    if (!nangoUrl || !nangoSecretKey) return undefined;
    return new NangoClient({ url: nangoUrl, secretKey: nangoSecretKey }, { clock, outbound: this.outbound, signal });
  }

  integrationUrl(ref: string): string | null {
    const template = this.config.connectorServiceUrl;
    return template ? template.replaceAll('{connection_ref_id}', encodeURIComponent(ref)) : null;
  }

  async list(
    ctx: RequestContext,
    projectId: string,
    page: PageQuery,
  ): Promise<{ items: repo.ConnectionRow[]; next_cursor: string | null }> {
    await this.projects.resolve(ctx, projectId, 'data.read');
    const after = decodeCursor(page.cursor, z.string());
    const rows = await repo.listConnections(this.db, projectId, { after, limit: page.limit + 1 });
    return pageOf(rows, page.limit, (row) => row.connection_ref_id);
  }

  /** Create or rotate. Everything is validated before anything is stored; secrets only go in. */
  async upsert(ctx: RequestContext, input: UpsertConnectionInput): Promise<repo.ConnectionRow> {
    await this.projects.resolve(ctx, input.project_id, 'admin');
    const existing = await repo.findConnection(this.db, input.project_id, input.connection_ref_id);
    const provider = providerFor(input.provider);
    const errors: FieldViolation[] = [];
    if (!provider)
      errors.push({ path: 'provider', message: `unknown provider; use one of: ${PROVIDER_NAMES.join(', ')}` });
    if (existing && existing.provider !== input.provider) {
      errors.push({
        path: 'provider',
        message: `connection ${input.connection_ref_id} uses provider ${existing.provider}; use a new connection_ref_id for another provider`,
      });
    }
    let config: Record<string, unknown> = input.config;
    const viaNango = input.config.nango !== undefined;
    if (viaNango) errors.push(...this.nangoProblems(provider, input.secrets));
    if (provider) {
      const parsed = provider.configSchema.safeParse(input.config);
      if (parsed.success) {
        config = parsed.data as Record<string, unknown>;
        errors.push(...this.policyProblems(provider, config, input.secrets ?? {}));
        for (const problem of (await provider.configProblems?.(config, { dataDir: this.config.dataDir })) ?? [])
          errors.push({ path: `config.${problem.path}`, message: problem.message });
      } else
        errors.push(...violationsOf(parsed.error).map((v) => ({ ...v, path: v.path ? `config.${v.path}` : 'config' })));
      if (!viaNango && (input.secrets !== undefined || !existing)) {
        const secrets = provider.secretsSchema.safeParse(input.secrets ?? {});
        // Messages name the field, never echo a value.
        if (!secrets.success)
          errors.push(
            ...violationsOf(secrets.error).map((v) => ({
              path: v.path ? `secrets.${v.path}` : 'secrets',
              message: v.message,
            })),
          );
      }
    }
    if (errors.length) throw new ValidationError(errors);
    const status = input.status ?? (existing && input.secrets === undefined ? existing.status : 'active');
    return repo.upsertConnection(this.db, {
      project_id: input.project_id,
      connection_ref_id: input.connection_ref_id,
      provider: input.provider,
      status,
      config,
      secrets: input.secrets === undefined ? null : this.box.seal(input.secrets),
      actor: ctx.actor.subject,
      now: ctx.clock.now(),
    });
  }

  /** Refusals of the outbound policy that need no resolver, naming the field (never its secret value). */
  private policyProblems(
    provider: AnyProvider,
    config: Record<string, unknown>,
    secrets: Record<string, unknown>,
  ): FieldViolation[] {
    const policy = this.outbound.policy;
    let targets: ReturnType<NonNullable<AnyProvider['outboundTargets']>> = [];
    try {
      targets = provider.outboundTargets?.(config, secrets) ?? [];
    } catch {
      return []; // a secret the schema refuses is reported by the schema
    }
    const errors: FieldViolation[] = [];
    for (const target of targets) {
      const problem = 'url' in target ? staticRefusal(target.url, policy) : staticHostRefusal(target.host, policy);
      if (problem) errors.push({ path: target.path, message: problem });
    }
    return errors;
  }

  private nangoProblems(
    provider: AnyProvider | undefined,
    secrets: Record<string, unknown> | undefined,
  ): FieldViolation[] {
    const errors: FieldViolation[] = [];
    if (provider && !provider.nango)
      errors.push({
        path: 'config.nango',
        message: `provider ${provider.name} cannot take its credentials from Nango`,
      });
    else if (!this.config.nangoUrl)
      errors.push({
        path: 'config.nango',
        message: 'set NANGO_URL and NANGO_SECRET_KEY to take credentials from Nango',
      });
    if (provider?.nango && provider.nangoSecretsSchema) {
      const parsed = provider.nangoSecretsSchema.safeParse(secrets ?? {});
      if (!parsed.success)
        errors.push(
          ...violationsOf(parsed.error).map((v) => ({
            path: v.path ? `secrets.${v.path}` : 'secrets',
            message: v.message,
          })),
        );
    } else if (secrets !== undefined && Object.keys(secrets).length > 0)
      errors.push({ path: 'secrets', message: 'a connection whose credentials Nango holds stores no secrets here' });
    return errors;
  }

  /**
   * Nango's auth webhook (X-Nango-Hmac-Sha256 over the raw body). A failed refresh marks the
   * connections of that Nango connection `expired` with Nango's reason; a new or re-authorized one
   * makes them `active` again. Anything not signed with the key changes nothing (401).
   */
  async nangoWebhook(rawBody: string, signature: string | undefined): Promise<{ updated: number }> {
    const now = this.clock.now();
    const key = this.config.nangoWebhookSigningKey;
    if (!key || !nangoSignatureValid(rawBody, signature, key))
      throw new UnauthorizedError('webhook_signature_invalid', 'The X-Nango-Hmac-Sha256 signature does not match.', {
        hint: 'Nango signs with the environment webhook signing key (NANGO_WEBHOOK_SIGNING_KEY, else NANGO_SECRET_KEY).',
      });
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw new ValidationError([{ path: 'body', message: 'is not valid JSON' }]);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { updated: 0 };
    const event = parsed as Record<string, unknown>;
    if (event.type !== 'auth' || typeof event.connectionId !== 'string' || typeof event.providerConfigKey !== 'string')
      return { updated: 0 }; // other webhook types (syncs, forwards) are not ours: acknowledged, ignored
    const rows = await repo.findByNangoConnection(this.db, event.providerConfigKey, event.connectionId);
    const failed = event.success === false;
    const error = event.error as { type?: unknown; description?: unknown } | undefined;
    const reason = failed
      ? `Nango: the ${String(event.operation ?? 'auth')} failed${error?.description ? `: ${String(error.description).slice(0, 300)}` : error?.type ? ` (${String(error.type).slice(0, 60)})` : ''}`
      : null;
    for (const row of rows) {
      if (row.status === 'revoked') continue;
      const status = failed ? (event.operation === 'refresh' ? 'expired' : 'error') : 'active';
      await repo.recordConnectionError(this.db, row.project_id, row.connection_ref_id, status, reason, now);
      if (failed) await repo.recordTokenError(this.db, row, reason!, status === 'expired', now);
      else await repo.storeToken(this.db, row, { access: null, expiresAt: row.token_expires_at, secrets: null, now });
    }
    return { updated: rows.length };
  }

  /** A Nango connect link for a connection whose credentials Nango holds (the Connect UI). */
  async connectLink(ctx: RequestContext, projectId: string, ref: string) {
    await this.projects.resolve(ctx, projectId, 'admin');
    const row = await this.require(projectId, ref);
    const nangoRef = row.config.nango as { provider_config_key?: string } | undefined;
    const client = this.nango(ctx.clock);
    if (!nangoRef?.provider_config_key || !client)
      throw new ValidationError([
        { path: 'connection_ref_id', message: 'the connection takes no credentials from Nango' },
      ]);
    try {
      return await client.connectSession(nangoRef.provider_config_key, {
        end_user_id: `${projectId}:${ref}`,
        organization_id: projectId,
      });
    } catch (error) {
      if (error instanceof ProviderError)
        throw new ValidationError(
          [{ path: 'connection_ref_id', message: error.message }],
          error.message,
          'nango_failed',
        );
      throw error;
    }
  }

  /** Token check + connectivity test now; stores the outcome and the new status. Failures are answers, not errors. */
  async verify(ctx: RequestContext, input: VerifyConnectionInput): Promise<VerifyOutcome> {
    await this.projects.resolve(ctx, input.project_id, 'admin');
    const row = await this.require(input.project_id, input.connection_ref_id);
    if (row.provider !== input.provider) {
      throw new ValidationError([
        { path: 'provider', message: `connection ${input.connection_ref_id} uses provider ${row.provider}` },
      ]);
    }
    let outcome: VerifyOutcome;
    if (row.status === 'revoked') {
      const revoked = {
        ok: false,
        ms: 0,
        reason: 'the connection is revoked; rotate it (POST /api/credentials) to use it again',
      };
      outcome = { status: 'revoked', token_check: revoked, connectivity: revoked };
    } else {
      try {
        const { provider, context } = this.contextFor(row, ctx.clock);
        outcome = await provider.verify(context);
      } catch (error) {
        // A connection this process cannot use (Nango not configured here): an answer, not a 500.
        if (!(error instanceof ProviderError)) throw error;
        const failed = { ok: false, ms: 0, reason: error.message };
        outcome = { status: error.status, token_check: failed, connectivity: { ...failed, reason: 'skipped' } };
      }
    }
    const error = outcome.token_check.ok
      ? outcome.connectivity.ok
        ? null
        : outcome.connectivity.reason
      : outcome.token_check.reason;
    await repo.recordVerification(this.db, row, {
      status: outcome.status,
      verification: { token_check: outcome.token_check, connectivity: outcome.connectivity },
      error,
      now: ctx.clock.now(),
    });
    return outcome;
  }

  /** A connection's row, or undefined, with no grant check (the caller resolved the project). */
  async find(projectId: string, ref: string): Promise<repo.ConnectionRow | undefined> {
    return repo.findConnection(this.db, projectId, ref);
  }

  async require(projectId: string, ref: string): Promise<repo.ConnectionRow> {
    const row = await repo.findConnection(this.db, projectId, ref);
    if (!row)
      throw new NotFoundError('connection_not_found', `Connection ${ref} does not exist in project ${projectId}.`, {
        hint: 'Create it with POST /api/credentials.',
      });
    return row;
  }

  /** The provider and its call context, secrets decrypted in memory for this call only. */
  contextFor(
    row: repo.ConnectionRow,
    clock: Clock,
    signal?: AbortSignal,
  ): { provider: AnyProvider; context: ProviderContext } {
    const provider = providerFor(row.provider);
    if (!provider) throw new NotFoundError('provider_unknown', `Provider ${row.provider} is not built in.`);
    const config = provider.configSchema.parse(row.config) as Record<string, unknown>;
    const secrets = this.box.open(row.secrets_ciphertext);
    const outbound = this.outbound;
    return {
      provider,
      context: {
        config,
        secrets,
        dataDir: this.config.dataDir,
        clock,
        signal,
        outbound,
        tokens: this.tokensFor(row, provider, config, { clock, outbound, signal }),
      },
    };
  }

  private tokensFor(
    row: repo.ConnectionRow,
    provider: AnyProvider,
    config: Record<string, unknown>,
    deps: { clock: Clock; outbound: SourceOutbound; signal?: AbortSignal | undefined },
  ): AccessTokens | undefined {
    const nangoRef = config.nango as { provider_config_key: string } | undefined;
    if (nangoRef) {
      const client = this.nango(deps.clock, deps.signal);
      if (!client) throw new ProviderError('the connection takes its credentials from Nango, but NANGO_URL is not set');
      return new NangoTokens(client, { db: this.db, clock: deps.clock }, row, nangoRef.provider_config_key);
    }
    const settings = provider.oauth?.(config);
    if (!settings) return undefined;
    return new StoredTokens({ db: this.db, box: this.box, ...deps, signal: deps.signal }, row, settings);
  }

  async recordRunFailure(
    projectId: string,
    ref: string,
    status: 'error' | 'expired',
    error: string,
    now: Date,
  ): Promise<void> {
    await repo.recordConnectionError(this.db, projectId, ref, status, error, now);
  }
}
