import { defineTool, type ToolAnnotations } from '../../../mcp/kit/tool.js';
import { TriageAnomalyToolInput, TriageOutput } from './triage.schemas.js';
import type { AnomalyTriageService } from './triage.service.js';

/** Setting the same status twice changes nothing; a closing may resolve a PagerDuty incident. */
const TRIAGE_WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

function triageTool(
  triage: AnomalyTriageService,
  spec: { name: string; title: string; description: string; visibility?: ('model' | 'app')[] },
) {
  return defineTool({
    ...spec,
    input: TriageAnomalyToolInput,
    permission: 'context.write',
    annotations: TRIAGE_WRITE,
    dataShape: { triage: TriageOutput },
    run: async (ctx, input) => {
      const { anomaly_id, ...change } = input;
      const t = await triage.triage(ctx, anomaly_id, change);
      return {
        kind: 'enveloped',
        summary: [
          `Anomaly ${t.anomaly_id} is now ${t.status}` +
            (t.previous_status !== t.status ? ` (was ${t.previous_status}).` : ' (status unchanged).'),
          ...(t.pagerduty_resolves
            ? [`Resolved its PagerDuty incident (${t.pagerduty_resolves} destination(s)).`]
            : []),
          `It may next become: ${t.allowed_next.join(', ')}.`,
        ],
        projectId: t.project_id,
        provenance: { source: 'anomaly_triage' },
        data: { triage: t },
      };
    },
  });
}

export function anomalyTriageTools(triage: AnomalyTriageService) {
  return [
    triageTool(triage, {
      name: 'triage_anomaly',
      title: 'Triage an anomaly',
      description:
        'Sets a fired anomaly’s status (acknowledged, resolved, expected: left out of later baselines, false_positive: ' +
        'counted as normal; a closed one only reopens), note, assignee or linked context event.',
    }),
    // The anomalies view's buttons: the same input, permission and service, listed only to views.
    triageTool(triage, {
      name: 'triage_anomaly_from_view',
      title: 'Triage an anomaly (view)',
      description: 'Sets an anomaly’s triage status from the anomalies view’s buttons.',
      visibility: ['app'],
    }),
  ];
}
