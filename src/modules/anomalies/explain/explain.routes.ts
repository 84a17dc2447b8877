import { defineRoute } from '../../../platform/http/route.js';
import { ExplainOutput, ExplainParams } from './explain.schemas.js';
import type { AnomalyExplainService } from './explain.service.js';

export function anomalyExplainRoutes(explain: AnomalyExplainService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/:id/explain',
      summary:
        'Why an anomaly fired: each channel (of the total) or campaign (of a channel) that moved it, rate and mix ' +
        'effects for ratio KPIs, the context events of its days, the data-quality checks of the runs that wrote ' +
        'them and the Skills about its metric',
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      params: ExplainParams,
      response: ExplainOutput,
      handler: async ({ ctx, params }) => {
        const { resolved, ...out } = await explain.explain(ctx, params.id);
        return { project_id: resolved.project.id, ...out };
      },
    }),
  ];
}
