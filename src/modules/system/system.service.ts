import type { Database } from '../../platform/db/database.js';
import { pendingMigrations } from '../../platform/db/migrate.js';
import { ServiceUnavailableError } from '../../platform/errors.js';

export interface SystemDeps {
  db: Database;
  version: string;
  startedAt: Date;
}

/** The probes' answers: the process itself and its store, nothing else. */
export class SystemService {
  constructor(private readonly deps: SystemDeps) {}

  /** Liveness: answering at all is the signal. Uptime is the process's, so the wall clock, not the injected one. */
  health() {
    return {
      status: 'ok',
      version: this.deps.version,
      uptime_s: Math.round((Date.now() - this.deps.startedAt.getTime()) / 1000),
    };
  }

  /** Readiness: the store answers and every migration is applied. */
  async ready() {
    try {
      await this.deps.db.ping();
    } catch {
      throw new ServiceUnavailableError('store_unreachable', 'The database does not answer.');
    }
    const pending = await pendingMigrations(this.deps.db);
    if (pending.length > 0)
      throw new ServiceUnavailableError('migrations_pending', `Migrations not applied: ${pending.join(', ')}.`);
    return { status: 'ready', store: this.deps.db.kind };
  }
}
