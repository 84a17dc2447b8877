import type { RequestContext } from '../../platform/context/request-context.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError } from '../../platform/errors.js';
import type { AuditRecorder } from './audit.service.js';
import { assertOrgRole } from './org.policy.js';
import * as repo from './org.repo.js';
import { LIMIT_DEFAULTS, LIMIT_NAMES, type LimitName, type Limits, type UpdateSettingsInput } from './org.schemas.js';

/** How long a process trusts its copy of the limits for the hot path (the rate limiter). */
const LIMITS_CACHE_MS = 30_000;

export function effectiveLimits(stored: Record<string, unknown>): Limits {
  const limits = { ...LIMIT_DEFAULTS } as Limits;
  for (const name of LIMIT_NAMES) {
    const value = stored[name];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) limits[name] = value;
  }
  return limits;
}

/** The organization's settings and entitlement limits. */
export class OrgSettingsService {
  private cached: { limits: Limits; at: number } | undefined;

  constructor(
    private readonly db: Database,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  async get(_ctx: RequestContext): Promise<repo.SettingsRow & { effective: Limits }> {
    const row = await repo.readSettings(this.db);
    return { ...row, effective: effectiveLimits(row.limits) };
  }

  async update(ctx: RequestContext, input: UpdateSettingsInput): Promise<repo.SettingsRow & { effective: Limits }> {
    assertOrgRole(ctx, 'owner');
    const row = await this.db.transaction(async (tx) => {
      const updated = await repo.updateSettings(tx, input, ctx.clock.now());
      await this.audit.record(
        ctx,
        {
          action: 'org.settings.update',
          target: 'org',
          details: { changed: Object.keys(input), ...(input.limits ? { limits: input.limits } : {}) },
        },
        tx,
      );
      return updated;
    });
    const effective = effectiveLimits(row.limits);
    this.cached = { limits: effective, at: this.clock.now().getTime() };
    return { ...row, effective };
  }

  /** Limits for the hot path: at most LIMITS_CACHE_MS old (another replica's change shows up by then). */
  async limits(): Promise<Limits> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < LIMITS_CACHE_MS) return this.cached.limits;
    const limits = effectiveLimits((await repo.readSettings(this.db)).limits);
    this.cached = { limits, at: now };
    return limits;
  }

  /**
   * Refuses creating past an entitlement limit: 409 naming the limit. Callers count what exists
   * (inside their transaction when they have one) and say how many they are adding.
   */
  async assertWithinLimit(limit: LimitName, current: number, adding = 1, tx?: SqlExecutor): Promise<void> {
    const max = effectiveLimits((await repo.readSettings(tx ?? this.db)).limits)[limit];
    if (current + adding > max) {
      throw new ConflictError('limit_exceeded', `The ${limit} limit of ${max} is reached (${current} exist).`, {
        details: { limit, max, current },
        hint: 'Remove something first, or ask an owner to raise the limit (PUT /api/org/settings).',
      });
    }
  }
}
