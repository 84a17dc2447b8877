import { z } from 'zod';
import { defineRoute } from '../../platform/http/route.js';
import { CalendarDate } from '../../platform/calendar.js';
import { ProjectId } from '../projects/index.js';
import type { InsightsService } from './insights.service.js';

const InsightsQuery = z.object({
  project_id: ProjectId,
  date: CalendarDate.optional().describe('One day; without it the newest insights first, paginated.'),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  cursor: CalendarDate.optional().describe('The next_cursor of the previous page (a date).'),
});

export function insightRoutes(insights: InsightsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/insights',
      summary:
        'Daily insights of a project: one date, or the newest first (record, Markdown narrative, version, inputs hash)',
      tags: ['insights'],
      rule: { permission: 'data.read' },
      query: InsightsQuery,
      handler: async ({ ctx, query }) => {
        if (query.date) {
          const { insight } = await insights.get(ctx, query.project_id, query.date);
          return { insights: [insight], next_cursor: null };
        }
        return insights.list(ctx, query.project_id, query.cursor, query.limit);
      },
    }),
  ];
}
