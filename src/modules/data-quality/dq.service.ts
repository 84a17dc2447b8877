import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { daysBetween, todayIn } from '../../platform/calendar.js';
import type { ProjectsService } from '../projects/index.js';
import { MONITORS, type MonitorScope } from './dq.monitors.js';
import type { CheckResult } from './dq.types.js';
import { type CheckOutput, presentCheck } from './dq.presenter.js';
import * as repo from './dq.repo.js';

export type { CheckOutput } from './dq.presenter.js';

/**
 * Data-quality monitors after every ingestion. Each check appends one ledger row; a monitor that
 * throws is recorded as `error` (its message says which monitor, never the SQL) and the others run.
 */
export class DataQualityService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  async runMonitors(scope: MonitorScope, clock: { now(): Date }): Promise<CheckOutput[]> {
    const rows: Omit<repo.LedgerRow, 'seq'>[] = [];
    for (const [name, monitor] of MONITORS) {
      const started = clock.now();
      let result: CheckResult;
      try {
        result = await monitor(this.db, scope);
      } catch {
        result = {
          monitor: name,
          dataset: 'unknown',
          status: 'error',
          observed: null,
          threshold: null,
          message: `the ${name} monitor could not run; the service log has details`,
        };
      }
      rows.push({
        id: `dq_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        project_id: scope.projectId,
        datastream_id: scope.datastreamId,
        run_id: scope.runId,
        started_at: started,
        finished_at: clock.now(),
        ...result,
      });
    }
    const inserted = await repo.insertChecks(this.db, rows);
    return inserted.sort((a, b) => Number(a.seq) - Number(b.seq)).map(presentCheck);
  }

  async status(
    ctx: RequestContext,
    projectRef: string | undefined,
    page: { limit: number; cursor?: string | undefined; status?: string | undefined },
  ) {
    const resolved = await this.projects.resolve(ctx, projectRef, 'data.read');
    const projectId = resolved.project.id;
    const after = decodeCursor(page.cursor, z.number());
    const rate = await repo.passRate(this.db, projectId, ctx.clock.now());
    const open = await repo.openFailures(this.db, projectId);
    const fresh = await repo.datastreamFreshness(this.db, projectId);
    const ledger = await repo.listChecks(this.db, {
      projectId,
      beforeSeq: after ?? null,
      status: page.status ?? null,
      limit: page.limit + 1,
    });
    const paged = pageOf(ledger, page.limit, (r) => Number(r.seq));
    const total = Number(rate?.total ?? 0);
    return {
      resolved,
      project_id: projectId,
      health: {
        pass_rate: total ? Math.round((Number(rate!.passed) / total) * 10_000) / 10_000 : null,
        checks_last_7_days: total,
        freshness: fresh.map((f) => ({
          datastream_id: f.id,
          name: f.name,
          last_date: f.last_date,
          lag_days: f.last_date ? daysBetween(f.last_date, todayIn(ctx.clock, f.timezone)) : null,
        })),
        open_failures: open.map(presentCheck),
      },
      ledger: paged.items.map(presentCheck),
      next_cursor: paged.next_cursor,
    };
  }
}
