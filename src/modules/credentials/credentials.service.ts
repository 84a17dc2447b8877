import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldViolation } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { violationsOf } from '../../platform/validation.js';
import { providerFor, PROVIDER_NAMES } from '../providers/registry.js';
import type { AnyProvider, ProviderContext, VerifyOutcome } from '../providers/provider.js';
import type { ProjectsService } from '../projects/projects.service.js';
import * as repo from './credentials.repo.js';
import type { UpsertConnectionInput, VerifyConnectionInput } from './credentials.schemas.js';
import { SecretBox } from './secret-box.js';

export class CredentialsService {
  readonly box: SecretBox;

  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly config: Config,
  ) {
    this.box = new SecretBox(config);
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
    if (provider) {
      const parsed = provider.configSchema.safeParse(input.config);
      if (parsed.success) config = parsed.data as Record<string, unknown>;
      else
        errors.push(...violationsOf(parsed.error).map((v) => ({ ...v, path: v.path ? `config.${v.path}` : 'config' })));
      if (input.secrets !== undefined || !existing) {
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
      const { provider, context } = this.contextFor(row, ctx.clock);
      outcome = await provider.verify(context);
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
    return { provider, context: { config, secrets, dataDir: this.config.dataDir, clock, signal } };
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
