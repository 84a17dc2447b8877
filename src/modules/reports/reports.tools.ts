import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { RunReportInput } from './reports.schemas.js';
import type { ReportsService } from './reports.service.js';

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
      description: 'Runs a saved report definition by name and returns its rows.',
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
        currency: z.string().describe("The project's reporting currency: money columns are in it."),
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
            currency: r.resolved.project.reporting_currency.trim(),
          },
        };
      },
    }),
  ];
}
