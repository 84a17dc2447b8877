import { actorHas } from '../../platform/auth/actor.js';
import type { Permission } from '../../platform/auth/permissions.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { METRICS } from '../anomalies/index.js';
import { ProjectRef, type ProjectsService } from '../projects/index.js';
import {
  type Completion,
  NO_COMPLETION,
  type ValueCompleter,
  type ValueKind,
  type ValueQuery,
} from '../../mcp/kit/completion.js';
import * as repo from './completion.repo.js';

/** What a project-scoped kind of value needs on its project. */
const PERMISSION: Record<Exclude<ValueKind, 'project'>, Permission> = {
  skill: 'context.read',
  topic: 'context.read',
  business_key: 'context.read',
  metric: 'data.read',
  channel: 'data.read',
  run: 'data.read',
};

/** Longer typed text is cut to this: no value we complete is longer, and it bounds the SQL's work. */
const MAX_TYPED = 200;

/**
 * completion/complete's values: project ids, Skill names, Knowledge topic ids, business
 * keys, metric and channel names and run ids, only from what the caller may see: a project it has
 * no grant for (or whose data its role may not read) completes nothing, exactly as a project that
 * does not exist, so completion cannot be used to probe. Ranked by prefix, then similarity
 * (completion.repo.ts), at most 100.
 */
export class CompletionService implements ValueCompleter {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  async complete(ctx: RequestContext, query: ValueQuery): Promise<Completion> {
    const typed = query.value.slice(0, MAX_TYPED);
    if (query.kind === 'project') {
      const permitted = await this.projects.permittedIds(ctx, query.permission ?? 'context.read');
      const among = query.among ? new Set(query.among) : undefined;
      return answer(await repo.rankAmong(this.db, among ? permitted.filter((id) => among.has(id)) : permitted, typed));
    }
    const permission = PERMISSION[query.kind];
    if (query.kind === 'metric') {
      // The same names in every project: the caller's role must read data somewhere.
      return actorHas(ctx.actor, permission) ? answer(await repo.rankAmong(this.db, METRICS, typed)) : NO_COMPLETION;
    }
    const projectId = await this.projectOf(ctx, query.project, permission);
    if (!projectId) return NO_COMPLETION;
    switch (query.kind) {
      case 'skill':
        return answer(await repo.skillNames(this.db, projectId, typed));
      case 'topic':
        return answer(await repo.topicIds(this.db, projectId, typed));
      case 'business_key':
        return answer(await repo.businessKeys(this.db, projectId, typed));
      case 'channel':
        return answer(await repo.channels(this.db, projectId, typed));
      case 'run':
        return answer(await repo.runIds(this.db, projectId, typed));
    }
  }

  /** The project a value belongs to, when the caller may read it; undefined (nothing offered) otherwise. */
  private async projectOf(
    ctx: RequestContext,
    ref: string | undefined,
    permission: Permission,
  ): Promise<string | undefined> {
    // A console URL names its project as a tool's project_id does.
    const parsed = ProjectRef.safeParse(ref || undefined);
    if (!parsed.success) return undefined;
    try {
      return (await this.projects.resolve(ctx, parsed.data, permission)).project.id;
    } catch (error) {
      // Ambiguous, forbidden, unknown or malformed: nothing to offer, and no word on which.
      if (error instanceof AppError) return undefined;
      throw error;
    }
  }
}

function answer(ranked: repo.RankedValues): Completion {
  return { values: ranked.values, total: ranked.total, hasMore: ranked.total > ranked.values.length };
}
