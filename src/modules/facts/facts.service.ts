import type { SqlExecutor } from '../../platform/db/database.js';
import type { QueueHandle } from '../../platform/jobs/queues.js';
import * as repo from './facts.repo.js';

/** The facts the evaluators publish; docs/architecture.md "Facts" documents each payload. */
export const FACT_TYPES = [
  'datastream.ingested',
  'dataset.transformed',
  'anomaly.detected',
  'insight.composed',
  'dq.check_failed',
  'run.failed',
] as const;
export type FactType = (typeof FACT_TYPES)[number];

export interface Fact {
  seq: number;
  type: FactType;
  project_id: string;
  payload: Record<string, unknown>;
  occurred_at: string;
}

/**
 * Facts: an append-only log (the `facts` table) plus delivery to the queues that react to a type.
 * Reactions are work one process should do, so each subscriber is a pg-boss queue (one job per
 * fact, taken by exactly one worker); what every replica must see goes through the ChangeFeed.
 */
export class FactsService {
  private readonly subscribers = new Map<
    FactType,
    { queue: QueueHandle<{ fact: Fact }>; when: ((fact: Fact) => boolean) | undefined }[]
  >();

  constructor(private readonly db: SqlExecutor) {}

  /** Queues a job on `queue` for every fact of `type` (for which `when` holds, when given). */
  on(type: FactType, queue: QueueHandle<{ fact: Fact }>, when?: (fact: Fact) => boolean): void {
    this.subscribers.set(type, [...(this.subscribers.get(type) ?? []), { queue, when }]);
  }

  /** Appends a fact and tells its subscribers. */
  async publish(type: FactType, projectId: string, payload: Record<string, unknown>, now: Date): Promise<Fact> {
    const fact = await this.record(this.db, type, projectId, payload, now);
    await this.announce(fact);
    return fact;
  }

  /**
   * Appends a fact inside the caller's transaction, so it exists exactly when the change it reports
   * does (a run marked finally failed and its `run.failed`); call `announce` after the commit.
   * A fact whose announcement is lost (a crash after the commit) stays in the log, where the
   * readers that must not miss one (the alerts sweep) find it.
   */
  async record(
    db: SqlExecutor,
    type: FactType,
    projectId: string,
    payload: Record<string, unknown>,
    now: Date,
  ): Promise<Fact> {
    const row = await repo.insertFact(db, { type, projectId, payload, now });
    return {
      seq: Number(row.seq),
      type,
      project_id: projectId,
      payload,
      occurred_at: new Date(row.occurred_at).toISOString(),
    };
  }

  /** Sends one job per subscribing queue for a recorded fact. */
  async announce(fact: Fact): Promise<void> {
    for (const { queue, when } of this.subscribers.get(fact.type) ?? [])
      if (!when || when(fact)) await queue.send({ fact });
  }

  async recent(projectId: string, limit: number, type?: FactType): Promise<Fact[]> {
    const rows = await repo.recentFacts(this.db, projectId, limit, type ?? null);
    return rows.map((r) => ({
      ...r,
      type: r.type as FactType,
      seq: Number(r.seq),
      occurred_at: new Date(r.occurred_at).toISOString(),
    }));
  }
}
