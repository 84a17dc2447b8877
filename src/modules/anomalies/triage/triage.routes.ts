import { defineRoute } from '../../../platform/http/route.js';
import { TriageInput, TriageOutput, TriageParams } from './triage.schemas.js';
import type { AnomalyTriageService } from './triage.service.js';

export function anomalyTriageRoutes(triage: AnomalyTriageService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/:id/triage',
      summary: "An anomaly's triage: status, note, assignee, linked context event and the statuses it may move to",
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      params: TriageParams,
      response: TriageOutput,
      handler: async ({ ctx, params }) => triage.get(ctx, params.id),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/anomalies/:id',
      summary:
        'Triage an anomaly: status (open → acknowledged → resolved, or expected / false_positive; a closed one only ' +
        'reopens), note, assignee (a member), context_event_id (an event of its project); null clears a field',
      tags: ['anomalies'],
      rule: { permission: 'context.write' },
      params: TriageParams,
      body: TriageInput,
      response: TriageOutput,
      handler: async ({ ctx, params, body }) => triage.triage(ctx, params.id, body),
    }),
  ];
}
