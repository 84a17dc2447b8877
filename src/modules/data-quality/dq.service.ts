import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { daysBetween, todayIn } from '../money/calendar.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { MONITORS, type CheckResult, type MonitorScope } from './dq.monitors.js';

export interface LedgerRow {
  id: string;
  seq: number;
  project_id: string;
  monitor: string;
  datastream_id: string | null;
  dataset: string;
  status: CheckResult['status'];
  observed: number | null;
  threshold: number | null;
  run_id: string | null;
  started_at: Date;
  finished_at: Date;
  message: string;
}

export function presentCheck(r: LedgerRow) {
  return {
    check_id: r.id,
    monitor: r.monitor,
    datastream_id: r.datastream_id,
    dataset: r.dataset,
    status: r.status,
    observed: r.observed,
    threshold: r.threshold,
    run_id: r.run_id,
    started_at: new Date(r.started_at).toISOString(),
    finished_at: new Date(r.finished_at).toISOString(),
    message: r.message,
  };
}
export type CheckOutput = ReturnType<typeof presentCheck>;

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
    const rows: Omit<LedgerRow, 'seq'>[] = [];
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
    const inserted = await this.db.query<LedgerRow>(
      `INSERT INTO dq_checks (id, project_id, monitor, datastream_id, dataset, status, observed, threshold, run_id, started_at, finished_at, message)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::text[])
       RETURNING *`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.project_id),
        rows.map((r) => r.monitor),
        rows.map((r) => r.datastream_id),
        rows.map((r) => r.dataset),
        rows.map((r) => r.status),
        rows.map((r) => r.observed),
        rows.map((r) => r.threshold),
        rows.map((r) => r.run_id),
        rows.map((r) => r.started_at),
        rows.map((r) => r.finished_at),
        rows.map((r) => r.message),
      ],
    );
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
    const [rate] = await this.db.query<{ total: number; passed: number }>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'pass') AS passed FROM dq_checks WHERE project_id = $1 AND finished_at > $2::timestamptz - interval '7 days'`,
      [projectId, ctx.clock.now()],
    );
    const open = await this.db.query<LedgerRow>(
      `SELECT * FROM (SELECT DISTINCT ON (monitor, datastream_id) * FROM dq_checks WHERE project_id = $1 ORDER BY monitor, datastream_id, seq DESC) latest
       WHERE status IN ('fail', 'error') ORDER BY seq DESC`,
      [projectId],
    );
    const fresh = await this.db.query<{ id: string; name: string; timezone: string; last_date: string | null }>(
      `SELECT d.id, d.name, d.timezone, (SELECT max(date) FROM ad_performance_daily a WHERE a.project_id = d.project_id AND a.datastream_id = d.id) AS last_date
       FROM datastreams d WHERE d.project_id = $1 ORDER BY d.name`,
      [projectId],
    );
    const ledger = await this.db.query<LedgerRow>(
      `SELECT * FROM dq_checks WHERE project_id = $1 AND ($2::bigint IS NULL OR seq < $2) AND ($3::text IS NULL OR status = $3) ORDER BY seq DESC LIMIT $4`,
      [projectId, after ?? null, page.status ?? null, page.limit + 1],
    );
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
