import { defineTool, READ_ONLY } from '../../../mcp/kit/tool.js';
import { explainSummary } from './explain.presenter.js';
import { ExplainAnomalyToolInput, ExplainShape } from './explain.schemas.js';
import type { AnomalyExplainService } from './explain.service.js';

export function anomalyExplainTools(explain: AnomalyExplainService) {
  return [
    defineTool({
      name: 'explain_anomaly',
      title: 'Explain an anomaly',
      description:
        'Why one fired anomaly moved: each channel or campaign’s share of the change (rate vs mix for ROAS, CPA, CVR, CTR), ' +
        'events of its days, data-quality checks (a data problem?) and Skills for its metric. Use after get_anomalies.',
      input: ExplainAnomalyToolInput,
      permission: 'data.read',
      annotations: READ_ONLY,
      view: 'anomalies',
      dataShape: ExplainShape,
      run: async (ctx, input) => {
        const e = await explain.explain(ctx, input.anomaly_id, input.project_id);
        const { resolved, ...data } = e;
        return {
          kind: 'enveloped',
          summary: explainSummary(e),
          projectId: resolved.project.id,
          provenance: {
            source: 'kpis_daily, ad_performance_daily, dq_checks, context_events, skills',
            resolved_from: resolved.resolvedFrom,
          },
          data,
        };
      },
    }),
  ];
}
