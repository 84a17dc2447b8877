import type { CallerInfo } from '../caller.js';
import type { McpServerDeps } from '../server-deps.js';

type SkillPage = Awaited<ReturnType<NonNullable<McpServerDeps['registry']['skills']>['list']>>;

/**
 * skills/list pages for both eras' fast answers: the caller's page from the registry's catalog,
 * serialized once per frozen page (the catalog shares frozen pages until a write changes
 * them). The SDK's Skills extension answers exactly `{skills, nextCursor?}` plus, on 2026-07-28
 * only, its cache hint: each era's instance has the `tail` that follows the entries in its answer.
 */
export class SkillPages {
  private readonly bytes = new WeakMap<SkillPage, Buffer>();

  constructor(
    private readonly deps: McpServerDeps,
    private readonly tail: string,
  ) {}

  /**
   * The JSON of the caller's page at `cursor`, or undefined when the SDK path must answer: no
   * catalog, a cursor that is not a string, or a cursor we did not issue (the SDK gives that error
   * its exact code and message).
   */
  async json(caller: CallerInfo, cursor: unknown): Promise<Buffer | undefined> {
    const catalog = this.deps.registry.skills;
    if (!catalog || (cursor !== undefined && typeof cursor !== 'string')) return undefined;
    const ctx = { actor: caller.actor, requestId: caller.requestId, clock: this.deps.clock, log: this.deps.log };
    const page = await catalog.list(ctx, cursor).catch(() => undefined);
    if (!page) return undefined;
    const cached = this.bytes.get(page);
    if (cached) return cached;
    const next = page.nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(page.nextCursor)}`;
    const json = Buffer.from(`{"skills":${JSON.stringify(page.skills)}${next}${this.tail}}`);
    // A frozen page never changes, so its bytes never do either.
    if (Object.isFrozen(page)) this.bytes.set(page, json);
    return json;
  }
}
