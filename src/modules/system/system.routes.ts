import type { Database } from '../../platform/db/database.js';
import { pendingMigrations } from '../../platform/db/migrate.js';
import { ServiceUnavailableError } from '../../platform/errors.js';
import { defineRoute } from '../../platform/http/route.js';

/** Probes: public, exempt from Host validation, never touching anything but the store. */
export function systemRoutes(deps: { db: Database; version: string; startedAt: Date }) {
  return [
    defineRoute({
      method: 'GET',
      url: '/healthz',
      summary: 'Liveness: the process serves HTTP',
      tags: ['system'],
      rule: { public: true },
      handler: async () => ({
        status: 'ok',
        version: deps.version,
        uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/readyz',
      summary: 'Readiness: storage reachable and every migration applied',
      tags: ['system'],
      rule: { public: true },
      handler: async () => {
        try {
          await deps.db.ping();
        } catch {
          throw new ServiceUnavailableError('store_unreachable', 'The database does not answer.');
        }
        const pending = await pendingMigrations(deps.db);
        if (pending.length > 0)
          throw new ServiceUnavailableError('migrations_pending', `Migrations not applied: ${pending.join(', ')}.`);
        return { status: 'ready', store: deps.db.kind };
      },
    }),
  ];
}
