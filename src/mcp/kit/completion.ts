import type { Permission } from '../../platform/auth/permissions.js';
import type { RequestContext } from '../../platform/context/request-context.js';

/**
 * The kinds of value `completion/complete` offers: a prompt argument or a resource
 * template variable names one, and the completer (modules/completion) knows where its values live.
 */
export const VALUE_KINDS = ['project', 'skill', 'topic', 'business_key', 'metric', 'channel', 'run'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

export interface ValueQuery {
  kind: ValueKind;
  /** What the person typed so far. */
  value: string;
  /** The project (id, console URL or "default") a project-scoped value belongs to. */
  project?: string | undefined;
  /** For kind `project`: the permission the offered projects must allow (default context.read). */
  permission?: Permission;
  /** For kind `project`: only these projects (e.g. the ones that hold a Skill). */
  among?: readonly string[];
}

/** A completion answer: at most 100 values, best first. */
export interface Completion {
  values: string[];
  /** How many values match in all. */
  total: number;
  hasMore: boolean;
}

export const NO_COMPLETION: Completion = Object.freeze({ values: [], total: 0, hasMore: false }) as Completion;

/** Completes values of a kind, from what the caller may see only. */
export interface ValueCompleter {
  complete(ctx: RequestContext, query: ValueQuery): Promise<Completion>;
}
