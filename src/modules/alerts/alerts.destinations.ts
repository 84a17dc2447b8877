import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { projectRole } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError, type FieldViolation, NotFoundError, ValidationError } from '../../platform/errors.js';
import { classifyAddress } from '../../platform/outbound/address-policy.js';
import { OutboundError, outboundUrl } from '../../platform/outbound/outbound-http.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { violationsOf } from '../../platform/validation.js';
import type { SecretBox } from '../credentials/index.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectsService } from '../projects/index.js';
import * as config from './alerts.config.repo.js';
import type { MessagePayload } from './alerts.content.js';
import { type AlertDelivery, newMessageId } from './alerts.delivery.js';
import * as repo from './alerts.delivery.repo.js';
import { presentDestination } from './alerts.presenter.js';
import {
  type CreateDestinationInput,
  type DestinationKind,
  type DestinationOutput,
  KIND_SCHEMAS,
  type UpdateDestinationInput,
} from './alerts.schemas.js';
import { newSigningSecret } from './senders/index.js';

/** Secrets the service makes and keeps itself (never accepted from a request). */
const SERVICE_SECRETS = ['signing_secret'];

/**
 * Destinations (contact points): where a project's alert messages go. Secrets are sealed with the
 * connection-secret mechanism (SecretBox, AES-256-GCM) and only ever opened for an attempt; answers
 * list their names, never their values. A webhook's signing secret is made here and shown once.
 */
export class AlertDestinations {
  constructor(
    private readonly deps: {
      db: Database;
      projects: ProjectsService;
      box: SecretBox;
      audit: AuditRecorder;
      delivery: AlertDelivery;
      allowPrivate: () => boolean;
    },
  ) {}

  async create(ctx: RequestContext, input: CreateDestinationInput): Promise<DestinationOutput> {
    const { project } = await this.deps.projects.resolve(ctx, input.project_id, 'admin');
    const { config: cfg, secrets } = this.validate(input.kind, input.config, input.secrets, 'body');
    const signingSecret = input.kind === 'webhook' ? newSigningSecret() : undefined;
    const sealed = { ...secrets, ...(signingSecret ? { signing_secret: signingSecret } : {}) };
    const row = await this.deps.db.transaction(async (tx) => {
      const inserted = await config
        .insertDestination(tx, {
          id: `dest_${randomBytes(8).toString('hex')}`,
          project_id: project.id,
          name: input.name,
          kind: input.kind,
          config: cfg,
          secrets_ciphertext: this.deps.box.seal(sealed),
          enabled: input.enabled,
          actor: ctx.actor.subject,
          now: ctx.clock.now(),
        })
        .catch((error: unknown) => {
          throw uniqueName(error, input.name);
        });
      await this.deps.audit.record(
        ctx,
        {
          action: 'alert.destination.create',
          target: inserted.id,
          projectId: project.id,
          details: { name: inserted.name, kind: inserted.kind },
        },
        tx,
      );
      return inserted;
    });
    return presentDestination(row, sealed, [], signingSecret);
  }

  async list(ctx: RequestContext, projectId: string, page: PageQuery) {
    const { project } = await this.deps.projects.resolve(ctx, projectId, 'admin');
    const rows = await config.listDestinations(
      this.deps.db,
      project.id,
      decodeCursor(page.cursor, z.string()),
      page.limit + 1,
    );
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.name);
    const rules = await config.rulesUsing(
      this.deps.db,
      items.map((r) => r.id),
    );
    return {
      destinations: items.map((r) =>
        presentDestination(r, this.deps.box.open(r.secrets_ciphertext), rules.get(r.id) ?? []),
      ),
      next_cursor,
    };
  }

  async get(ctx: RequestContext, id: string): Promise<DestinationOutput> {
    const row = await this.findFor(ctx, id);
    return this.present(row);
  }

  async update(ctx: RequestContext, id: string, patch: UpdateDestinationInput): Promise<DestinationOutput> {
    const row = await this.findFor(ctx, id);
    const stored = this.deps.box.open(row.secrets_ciphertext);
    const own = Object.fromEntries(Object.entries(stored).filter(([k]) => !SERVICE_SECRETS.includes(k)));
    const { config: cfg, secrets } = this.validate(
      row.kind,
      patch.config ?? row.config,
      { ...own, ...(patch.secrets ?? {}) },
      'body',
      patch.secrets ?? {},
    );
    if (patch.rotate_signing_secret && row.kind !== 'webhook')
      throw new ValidationError([{ path: 'body.rotate_signing_secret', message: 'only webhook destinations sign' }]);
    const signingSecret = patch.rotate_signing_secret ? newSigningSecret() : undefined;
    const sealed = {
      ...secrets,
      ...(row.kind === 'webhook' ? { signing_secret: signingSecret ?? stored.signing_secret } : {}),
    };
    const updated = await this.deps.db.transaction(async (tx) => {
      const next = await config
        .updateDestination(tx, id, {
          name: patch.name ?? row.name,
          config: cfg,
          enabled: patch.enabled ?? row.enabled,
          secrets: this.deps.box.seal(sealed),
          actor: ctx.actor.subject,
          now: ctx.clock.now(),
        })
        .catch((error: unknown) => {
          throw uniqueName(error, patch.name ?? row.name);
        });
      if (!next) throw notFound(id);
      await this.deps.audit.record(
        ctx,
        {
          action: 'alert.destination.update',
          target: id,
          projectId: row.project_id,
          // Which secrets changed, never their values.
          details: {
            fields: Object.keys(patch).filter((k) => k !== 'secrets'),
            secrets_changed: Object.keys(patch.secrets ?? {}),
            rotated_signing_secret: Boolean(signingSecret),
          },
        },
        tx,
      );
      return next;
    });
    return this.present(updated, signingSecret);
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    const row = await this.findFor(ctx, id);
    const using = (await config.rulesUsing(this.deps.db, [id])).get(id) ?? [];
    if (using.length)
      throw new ConflictError(
        'destination_in_use',
        `Destination ${row.name} is used by ${using.length === 1 ? 'rule' : 'rules'} ${using.map((r) => r.name).join(', ')}.`,
        { details: { rules: using }, hint: 'Remove it from those rules (PATCH /api/alerts/rules/{id}) or disable it.' },
      );
    await this.deps.db.transaction(async (tx) => {
      if (!(await config.deleteDestination(tx, id))) throw notFound(id);
      await this.deps.audit.record(
        ctx,
        { action: 'alert.destination.delete', target: id, projectId: row.project_id, details: { name: row.name } },
        tx,
      );
    });
  }

  /**
   * Sends a test message now through the same sender and guard as an alert, answers the outcome
   * (a failure is an answer, not an error) and logs it as a delivery. A PagerDuty test opens an
   * info incident and resolves it right after, so nobody stays paged.
   */
  async test(ctx: RequestContext, id: string) {
    const { row, project } = await this.findWithProject(ctx, id);
    const now = ctx.clock.now();
    const messageId = newMessageId();
    const payload: MessagePayload = {
      type: 'alert.test',
      title: `Test message from Context Hub to ${row.name}`,
      project: { id: project.id, name: project.name, timezone: project.timezone },
      rule: null,
      run_id: null,
      window: null,
      sources: [],
      items: [],
      total: 0,
      unlisted: 0,
      console_url: null,
      created_at: now.toISOString(),
      ...(row.kind === 'pagerduty'
        ? { pagerduty: { action: 'trigger' as const, dedup_key: `test:${messageId}`, severity: 'info' as const } }
        : {}),
    };
    await repo.insertMessage(this.deps.db, {
      id: messageId,
      project_id: project.id,
      rule_id: null,
      rule_name: '(test)',
      destination_id: row.id,
      destination_name: row.name,
      kind: row.kind,
      source: 'test',
      event_type: 'alert.test',
      fact_seq: null,
      run_id: null,
      payload: payload as unknown as Record<string, unknown>,
      item_count: 0,
      status: 'pending',
      max_attempts: 1,
      deliver_after: now,
      created_at: now,
    });
    const claimed = await this.deps.delivery.claim(messageId, now, 60_000);
    const result = await this.deps.delivery.attempt(claimed!);
    const outcome = {
      ok: result.outcome === 'delivered',
      at: now.toISOString(),
      http_status: result.httpStatus,
      latency_ms: result.latencyMs,
      error: result.error,
    };
    await config.recordTest(this.deps.db, row.id, outcome);
    if (outcome.ok && row.kind === 'pagerduty') await this.deps.delivery.resolve(project.id, `test:${messageId}`);
    return { ...outcome, delivery_id: messageId, response_excerpt: result.excerpt };
  }

  private async present(row: config.DestinationRow, signingSecret?: string): Promise<DestinationOutput> {
    const rules = (await config.rulesUsing(this.deps.db, [row.id])).get(row.id) ?? [];
    return presentDestination(row, this.deps.box.open(row.secrets_ciphertext), rules, signingSecret);
  }

  /** Checks config and secrets against the kind; messages name fields, never echo a secret. */
  private validate(
    kind: DestinationKind,
    rawConfig: Record<string, unknown>,
    rawSecrets: Record<string, unknown>,
    at: string,
    given: Record<string, unknown> = rawSecrets,
  ): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
    const schemas = KIND_SCHEMAS[kind];
    const errors: FieldViolation[] = [];
    const cfg = schemas.config.safeParse(rawConfig);
    if (!cfg.success)
      errors.push(
        ...violationsOf(cfg.error).map((v) => ({
          path: `${at}.config${v.path ? `.${v.path}` : ''}`,
          message: v.message,
        })),
      );
    for (const key of SERVICE_SECRETS)
      if (key in given)
        errors.push({ path: `${at}.secrets.${key}`, message: 'is made by the service; it cannot be set' });
    const secrets = schemas.secrets.safeParse(
      Object.fromEntries(Object.entries(rawSecrets).filter(([k]) => !SERVICE_SECRETS.includes(k))),
    );
    if (!secrets.success)
      errors.push(
        ...violationsOf(secrets.error).map((v) => ({
          path: `${at}.secrets${v.path ? `.${v.path}` : ''}`,
          message: v.message,
        })),
      );
    const urls: [string, unknown][] = [];
    if (secrets.success && 'url' in secrets.data) urls.push([`${at}.secrets.url`, secrets.data.url]);
    if (cfg.success && 'events_url' in cfg.data) urls.push([`${at}.config.events_url`, cfg.data.events_url]);
    if (cfg.success && 'host' in cfg.data) urls.push([`${at}.config.host`, `smtp://${String(cfg.data.host)}`]);
    for (const [path, url] of urls) {
      const problem = this.urlProblem(String(url));
      if (problem) errors.push({ path, message: problem });
    }
    if (errors.length) throw new ValidationError(errors);
    return { config: cfg.data as Record<string, unknown>, secrets: secrets.data as Record<string, unknown> };
  }

  /**
   * What can be told before sending: the URL's form, plain http, and a literal or local address.
   * A name is resolved and checked at each attempt (what it resolves to may change).
   */
  private urlProblem(raw: string): string | undefined {
    let url: URL;
    try {
      url = raw.startsWith('smtp://') ? new URL(raw) : outboundUrl(raw);
    } catch (error) {
      return error instanceof OutboundError ? error.message : 'is not a valid URL';
    }
    if (this.deps.allowPrivate()) return undefined;
    if (url.protocol === 'http:')
      return 'must use https (plain http is allowed only with ALERTS_ALLOW_PRIVATE_NETWORKS=true)';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
      return `${host} is this machine; set ALERTS_ALLOW_PRIVATE_NETWORKS=true to allow private destinations`;
    if (/^[\d.]+$|:/.test(host)) {
      const verdict = classifyAddress(host);
      if (!verdict.allowed)
        return `${verdict.reason}; set ALERTS_ALLOW_PRIVATE_NETWORKS=true to allow private destinations`;
    }
    return undefined;
  }

  /** A destination the caller administers; 404 without any grant on its project (ids cannot be probed). */
  private async findFor(ctx: RequestContext, id: string): Promise<config.DestinationRow> {
    return (await this.findWithProject(ctx, id)).row;
  }

  private async findWithProject(ctx: RequestContext, id: string) {
    const row = await config.findDestination(this.deps.db, id);
    if (!row || projectRole(ctx.actor, row.project_id) === undefined) throw notFound(id);
    const { project } = await this.deps.projects.resolve(ctx, row.project_id, 'admin');
    return { row, project };
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError('destination_not_found', `Alert destination ${id} does not exist.`, {
    hint: 'List them with GET /api/alerts/destinations?project_id=….',
  });
}

/** The unique (project, name) index answers as a conflict naming the field. */
export function uniqueName(error: unknown, name: string): unknown {
  if ((error as { code?: string }).code !== '23505') return error;
  return new ConflictError('name_taken', `The name "${name}" is already used in this project.`, {
    details: { field: 'name' },
    hint: 'Choose another name.',
  });
}
