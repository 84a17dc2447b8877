import { defineRoute } from '../../platform/http/route.js';
import {
  AnomaliesQuery,
  AnomalyDetailOutput,
  AnomalyIdParams,
  AnomalyListOutput,
  GetMetricSeriesToolInput,
  MetricSeriesOutput,
} from './anomalies.schemas.js';
import {
  AnomalySettingsInput,
  AnomalySettingsOutput,
  EvaluateOutput,
  EvaluateQuery,
  SettingsQuery,
} from './detection/detection.schemas.js';
import type { AnomaliesService } from './anomalies.service.js';

export function anomalyRoutes(anomalies: AnomaliesService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/settings',
      summary: "A project's anomaly settings: what is stored and the effective rule per metric",
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      query: SettingsQuery,
      response: AnomalySettingsOutput,
      handler: async ({ ctx, query }) => anomalies.getSettings(ctx, query.project_id),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/anomalies/settings',
      summary:
        "Replace a project's anomaly settings (window, seasonality, threshold, training size, minimum changes, direction, per-metric overrides)",
      tags: ['anomalies'],
      rule: { permission: 'admin' },
      query: SettingsQuery,
      body: AnomalySettingsInput,
      response: AnomalySettingsOutput,
      handler: async ({ ctx, query, body }) => anomalies.putSettings(ctx, query.project_id, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/anomalies',
      summary:
        'Anomalies (runs of consecutive fired days of one series, with stable ids) with a fired day from since ' +
        "(default 30 days ago) to to (default no end), newest first, paginated, with the peak day's baseline and " +
        'correlated context events; date or anomaly_id widens the window to what a link names and answers it as focus',
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      query: AnomaliesQuery,
      response: AnomalyListOutput,
      handler: async ({ ctx, query }) => {
        const r = await anomalies.listFired(ctx, query);
        return {
          project_id: r.resolved.project.id,
          since: r.since,
          to: r.to,
          focus: r.focus,
          anomalies: r.anomalies,
          next_cursor: r.next_cursor,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/series',
      summary: "One metric's daily values on a channel with the trailing baseline each day was compared to",
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      query: GetMetricSeriesToolInput,
      response: MetricSeriesOutput,
      handler: async ({ ctx, query }) => {
        const { resolved, ...series } = await anomalies.metricSeries(ctx, query);
        return { project_id: resolved.project.id, ...series };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/:id',
      summary:
        'One anomaly by id (anom_…) with its whole triage and every evaluated day from its first to its last fired day',
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      params: AnomalyIdParams,
      response: AnomalyDetailOutput,
      handler: async ({ ctx, params }) => {
        const r = await anomalies.getById(ctx, params.id);
        return {
          project_id: r.resolved.project.id,
          ...r.anomaly,
          triage: r.triage,
          days: r.days,
          moved_with_it: r.movedWithIt,
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/anomalies/evaluate',
      summary: 'Re-evaluate a date range (default all dates with KPIs) with the current settings; no body',
      tags: ['anomalies'],
      rule: { permission: 'admin' },
      query: EvaluateQuery,
      response: EvaluateOutput,
      handler: async ({ ctx, query }) => anomalies.evaluate(ctx, query),
    }),
  ];
}
