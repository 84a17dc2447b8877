import type { Database } from '../../platform/db/database.js';
import { readContextVersions } from './search.repo.js';

interface Waiter {
  resolve(version: number): void;
  reject(error: unknown): void;
}

/**
 * Reads per-project content versions (context_versions, migration 0009) in batches.
 *
 * Why it is exact: every call's version comes from a read that *started after the call was made*,
 * so it counts every write committed before the call, on any replica: the same guarantee running
 * the search itself gives. Calls that arrive while a read is in flight wait for the next one
 * rather than sharing the one already under way (its snapshot may predate them). Under load one
 * short read answers dozens of calls.
 *
 * On the embedded store (which this process alone reaches) a version read is remembered with the
 * store's round count; while no round at all has run since, nothing can have changed, and the
 * remembered version is the answer without asking again. PGlite runs each statement to completion
 * before the event loop takes the next request, so batching alone would not help there.
 */
export class ContextVersionReader {
  private waiting = new Map<string, Waiter[]>();
  private reading = false;
  /** Embedded store only: the version read by the round with this number, per project. */
  private readonly quiet = new Map<string, { version: number; round: number }>();

  constructor(private readonly db: Database) {}

  read(projectId: string): Promise<number> {
    const remembered = this.quiet.get(projectId);
    if (remembered && this.db.roundsRun?.() === remembered.round) return Promise.resolve(remembered.version);
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(projectId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(projectId, [{ resolve, reject }]);
      if (!this.reading) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.reading = true;
    try {
      while (this.waiting.size > 0) {
        const batch = this.waiting;
        this.waiting = new Map();
        try {
          const roundsBefore = this.db.roundsRun?.();
          const rows = await readContextVersions(this.db, [...batch.keys()]);
          const found = new Map(rows.map((r) => [r.project_id, Number(r.version)]));
          // Remember only when this read was the one round since it was issued: had another run
          // first or after, the count could not say which state the version belongs to.
          if (roundsBefore !== undefined && this.db.roundsRun!() === roundsBefore + 1) {
            for (const projectId of batch.keys())
              this.quiet.set(projectId, { version: found.get(projectId) ?? 0, round: roundsBefore + 1 });
          }
          for (const [projectId, waiters] of batch) for (const w of waiters) w.resolve(found.get(projectId) ?? 0);
        } catch (error) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        }
      }
    } finally {
      this.reading = false;
    }
  }
}
