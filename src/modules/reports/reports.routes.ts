import { defineRoute } from '../../platform/http/route.js';
import { RunReportQuery } from './reports.schemas.js';
import type { ReportsService } from './reports.service.js';

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
