import type { RequestContext } from '../../platform/context/request-context.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import { addDays, todayIn } from '../../platform/calendar.js';
import { type FlowsService, ReportDefinition } from '../flows/index.js';
import type { ProjectsService } from '../projects/index.js';
import { runCompiled } from './reports.repo.js';
import { REPORT_MAX_ROWS } from './reports.schemas.js';
import { compileReport } from './reports.sql.js';

/** The dates a report's date_range means today in the project's timezone (complete days end yesterday). */
export function resolveRange(range: ReportDefinition['date_range'], today: string): { from: string; to: string } {
  if ('from' in range) return { from: range.from, to: range.to };
  const yesterday = addDays(today, -1);
  if ('last_days' in range) return { from: addDays(yesterday, -(range.last_days - 1)), to: yesterday };
  const lastN = /^last_(\d+)_days$/.exec(range.relative);
  if (lastN) return { from: addDays(yesterday, -(Number(lastN[1]) - 1)), to: yesterday };
  switch (range.relative) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: yesterday, to: yesterday };
    case 'month_to_date':
      return { from: `${today.slice(0, 8)}01`, to: today };
    default: {
      const firstOfThis = `${today.slice(0, 8)}01`;
      const lastOfPrev = addDays(firstOfThis, -1);
      return { from: `${lastOfPrev.slice(0, 8)}01`, to: lastOfPrev };
    }
  }
}

/** run_report: a saved, governed query over a catalog dataset, with a bounded number of rows. */
export class ReportsService {
  constructor(
    private readonly db: SqlExecutor,
    private readonly projects: ProjectsService,
    private readonly flows: FlowsService,
  ) {}

  async run(ctx: RequestContext, q: { project_id: string | undefined; name: string; limit?: number | undefined }) {
    const resolved = await this.projects.resolve(ctx, q.project_id, 'data.read');
    const stored = (await this.flows.reportDefinitions(resolved.project.id)).find((r) => r.name === q.name);
    if (!stored) {
      throw new NotFoundError(
        'report_not_found',
        `Project ${resolved.project.id} has no report definition named "${q.name}".`,
        {
          hint: 'GET /api/flows?project_id=… lists the report definitions; create one with POST /api/flows/upsert (kind report_definition).',
        },
      );
    }
    const def = ReportDefinition.parse(stored.definition);
    const range = resolveRange(def.date_range, todayIn(ctx.clock, resolved.project.timezone));
    const limit = Math.min(q.limit ?? 200, REPORT_MAX_ROWS);
    const compiled = compileReport(def, resolved.project.id, range, limit);
    const rows = await runCompiled(this.db, compiled);
    return {
      resolved,
      report: {
        name: def.name,
        description: def.description ?? null,
        dataset: def.dataset,
        metrics: def.metrics,
        dimensions: def.dimensions,
        filters: def.filters,
      },
      range,
      columns: compiled.columns,
      rows: rows.slice(0, limit),
      row_count: Math.min(rows.length, limit),
      truncated: rows.length > limit,
      limit,
    };
  }
}
