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
  private readonly subscribers = new Map<FactType, QueueHandle<{ fact: Fact }>[]>();

  constructor(private readonly db: SqlExecutor) {}

  on(type: FactType, queue: QueueHandle<{ fact: Fact }>): void {
    this.subscribers.set(type, [...(this.subscribers.get(type) ?? []), queue]);
  }

  async publish(type: FactType, projectId: string, payload: Record<string, unknown>, now: Date): Promise<Fact> {
    const row = await repo.insertFact(this.db, { type, projectId, payload, now });
    const fact: Fact = {
      seq: Number(row.seq),
      type,
      project_id: projectId,
      payload,
      occurred_at: new Date(row.occurred_at).toISOString(),
    };
    for (const queue of this.subscribers.get(type) ?? []) await queue.send({ fact });
    return fact;
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
