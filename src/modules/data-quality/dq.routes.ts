import { z } from 'zod';
import { defineRoute } from '../../platform/http/route.js';
import { ProjectId } from '../projects/index.js';
import type { DataQualityService } from './dq.service.js';

export const DqStatusQuery = z.object({
  project_id: ProjectId,
  status: z.enum(['pass', 'warn', 'fail', 'error']).optional().describe('Only ledger rows with this status.'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(200).optional(),
});

export function dqRoutes(dq: DataQualityService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/dq/status',
      summary:
        'Data-quality health (pass rate, freshness lag per datastream, open failures) and the check ledger, newest first, paginated',
      tags: ['data-quality'],
      rule: { permission: 'data.read' },
      query: DqStatusQuery,
      handler: async ({ ctx, query }) => {
        const { resolved: _resolved, ...out } = await dq.status(ctx, query.project_id, query);
        return out;
      },
    }),
  ];
}
