import { z } from 'zod';
import { defineRoute } from '../../platform/http/route.js';
import { defineTool, READ_ONLY } from '../../mcp/tool.js';
import { ProjectId, ProjectRef } from '../projects/projects.schemas.js';
import { REPORT_MAX_ROWS, type ReportsService } from './reports.service.js';

const RunReportInput = z
  .object({
    project_id: ProjectRef,
    name: z.string().trim().min(1).max(120).describe('The report definition name (GET /api/flows lists them).'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(REPORT_MAX_ROWS)
      .optional()
      .describe(`Rows at most (default 200, max ${REPORT_MAX_ROWS}).`),
  })
  .strict();

const SUMMARY_ROWS = 20;
const cell = (v: unknown) =>
  typeof v === 'number'
    ? v.toLocaleString('en-US', { maximumFractionDigits: 4 })
    : v === null || v === undefined
      ? '—'
      : String(v);

export function reportTools(reports: ReportsService) {
  return [
    defineTool({
      name: 'run_report',
      title: 'Run a saved report',
      description:
        'Runs a saved, governed report definition by name over its dataset (kpis_daily, ad_performance_daily or anomalies_daily) for its date range in the project timezone, with its metrics, dimensions and filters. ' +
        `Rows are bounded (limit, default 200, max ${REPORT_MAX_ROWS}); truncated says when more exist. Ratios (roas, cpa, ctr, cvr) are recomputed from summed parts.`,
      input: RunReportInput,
      view: 'report',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: {
        report: z.record(z.string(), z.unknown()),
        range: z.object({ from: z.string(), to: z.string() }),
        columns: z.array(z.string()),
        rows: z.array(z.record(z.string(), z.unknown())),
        row_count: z.number(),
        truncated: z.boolean(),
      },
      run: async (ctx, input) => {
        const r = await reports.run(ctx, input);
        return {
          kind: 'enveloped',
          summary: [
            `Report "${r.report.name}" on ${r.report.dataset}, ${r.range.from} → ${r.range.to}: ${r.row_count} row(s)${r.truncated ? ` (truncated at ${r.limit}; raise limit or narrow the filters)` : ''}.`,
            r.columns.join(' | ').slice(0, 200),
            ...r.rows.slice(0, SUMMARY_ROWS).map((row) =>
              r.columns
                .map((c) => cell(row[c]))
                .join(' | ')
                .slice(0, 200),
            ),
            ...(r.rows.length > SUMMARY_ROWS ? [`… ${r.rows.length - SUMMARY_ROWS} more rows in data.rows.`] : []),
          ],
          projectId: r.resolved.project.id,
          provenance: { source: r.report.dataset, report: r.report.name, resolved_from: r.resolved.resolvedFrom },
          data: {
            report: r.report,
            range: r.range,
            columns: r.columns,
            rows: r.rows,
            row_count: r.row_count,
            truncated: r.truncated,
          },
        };
      },
    }),
  ];
}

const RunReportQuery = z.object({
  project_id: ProjectId,
  name: z.string().trim().min(1).max(120),
  limit: z.coerce.number().int().min(1).max(REPORT_MAX_ROWS).optional(),
});

export function reportRoutes(reports: ReportsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/reports/run',
      summary: 'Run a saved report definition by name (bounded rows)',
      tags: ['reports'],
      rule: { permission: 'data.read' },
      query: RunReportQuery,
      handler: async ({ ctx, query }) => {
        const { resolved: _resolved, ...out } = await reports.run(ctx, query);
        return out;
      },
    }),
  ];
}
