import { z } from 'zod';
import { MAX_SUMMARY_LINE_CHARS } from '../../mcp/kit/envelope-limits.js';
import type { ResourceSpec } from '../../mcp/kit/registry.js';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import type { ProjectsService } from '../projects/index.js';
import {
  AnomalyOutput,
  FocusOutput,
  GetAnomaliesToolInput,
  GetMetricSeriesToolInput,
  MAX_TOOL_ANOMALIES,
  MetricSeriesShape,
  TOTAL_CHANNEL,
} from './anomalies.schemas.js';
import type { AnomaliesService } from './anomalies.service.js';

const SUMMARY_ROWS = 25;
const num = (n: number | null, digits = 2) =>
  n === null ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Summary lines are clipped at 200 characters: a cursor too long to fit is named by where it is. */
function moreLine(cursor: string): string {
  const line = `More fired anomalies: call get_anomalies with the same arguments and cursor "${cursor}".`;
  return line.length <= MAX_SUMMARY_LINE_CHARS
    ? line
    : 'More fired anomalies: call get_anomalies with the same arguments and cursor = data.next_cursor.';
}

export function anomalyTools(anomalies: AnomaliesService) {
  return [
    defineTool({
      name: 'get_anomalies',
      title: 'Get fired anomalies',
      description:
        'Lists the KPI anomalies that fired (spikes, drops and level shifts against a trailing baseline; consecutive fired days of one series are one anomaly with a stable id), newest first, with the context events of their peak day. Use it when numbers look unusual or to explain a change.',
      input: GetAnomaliesToolInput,
      permission: 'data.read',
      annotations: READ_ONLY,
      view: 'anomalies',
      dataShape: {
        since: z.string(),
        to: z.string().nullable(),
        count: z.number(),
        truncated: z.boolean(),
        next_cursor: z.string().nullable(),
        filters: z
          .object({ metric: z.string().nullable(), channel: z.string().nullable(), direction: z.string().nullable() })
          .describe('The filters of the call, for a view that lists another window.'),
        focus: FocusOutput,
        anomalies: z.array(AnomalyOutput),
      },
      run: async (ctx, input) => {
        const r = await anomalies.listFired(ctx, input);
        const list = r.anomalies;
        const range = r.to ? `from ${r.since} to ${r.to}` : `since ${r.since}`;
        return {
          kind: 'enveloped',
          summary: [
            `${list.length} anomal${list.length === 1 ? 'y' : 'ies'} fired in ${r.resolved.project.id} ${range}` +
              (r.next_cursor ? ` (the first ${list.length}; there are more).` : '.'),
            ...list.slice(0, SUMMARY_ROWS).map(
              (a) =>
                `- ${a.id} ${a.first_date === a.last_date ? a.date : `${a.first_date}→${a.last_date}`} ${a.metric} on ${a.channel === TOTAL_CHANNEL ? 'all channels' : a.channel}: ${a.kind} ${num(a.value)} vs ${num(a.baseline_mean)} ± ${num(a.baseline_stddev)} (z ${num(a.z, 1)}, ${a.severity})` +
                (a.context_events.length
                  ? `; events: ${a.context_events
                      .map((e) => e.title)
                      .join(', ')
                      .slice(0, 60)}`
                  : ''),
            ),
            ...(list.length > SUMMARY_ROWS ? [`… ${list.length - SUMMARY_ROWS} more in data.anomalies.`] : []),
            ...(r.next_cursor ? [moreLine(r.next_cursor)] : []),
            ...(r.focus ? [`Focus: ${r.focus.id} (${r.focus.metric} on ${r.focus.channel}, ${r.focus.date}).`] : []),
            ...(!r.focus && input.date ? [`Nothing of these filters fired on ${input.date}.`] : []),
          ],
          projectId: r.resolved.project.id,
          provenance: { source: 'anomalies_daily', resolved_from: r.resolved.resolvedFrom },
          data: {
            since: r.since,
            to: r.to,
            count: list.length,
            truncated: r.next_cursor !== null,
            next_cursor: r.next_cursor,
            filters: {
              metric: input.metric ?? null,
              channel: input.channel ?? null,
              direction: input.direction ?? null,
            },
            focus: r.focus,
            anomalies: list,
          },
        };
      },
    }),
    defineTool({
      name: 'get_metric_series',
      title: 'Get a metric series with its anomaly baseline',
      description: "A metric's daily values with the anomaly baseline of each day, for the anomalies view's chart.",
      input: GetMetricSeriesToolInput,
      permission: 'data.read',
      annotations: READ_ONLY,
      visibility: ['app'],
      dataShape: MetricSeriesShape,
      run: async (ctx, input) => {
        const { resolved, ...out } = await anomalies.metricSeries(ctx, input);
        const fired = out.points.filter((p) => p.fired).map((p) => p.date);
        return {
          kind: 'enveloped',
          summary: [
            `${out.metric} on ${out.channel === TOTAL_CHANNEL ? 'all channels' : out.channel} in ${resolved.project.id}, ${out.from} → ${out.to}: ${out.points.length} day(s) with a value, band ± ${out.rule.threshold} σ.`,
            fired.length ? `Fired on ${fired.join(', ')}.` : 'Nothing fired in this range.',
          ],
          projectId: resolved.project.id,
          provenance: { source: 'kpis_daily', baseline: 'anomalies_daily rules', resolved_from: resolved.resolvedFrom },
          data: out,
        };
      },
    }),
  ];
}

export function anomalyResources(anomalies: AnomaliesService, projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'anomalies-recent',
      uriTemplate: 'anomalies://{project_id}/recent',
      variables: { project_id: 'project' },
      title: 'Recent anomalies',
      description:
        "A project's anomalies fired in the last 30 days; subscribe to hear when surveillance finds new ones.",
      mimeType: 'application/json',
      permission: 'data.read',
      list: async (ctx) =>
        (await projects.list(ctx, { limit: 200 })).items.map((p) => ({
          uri: `anomalies://${p.id}/recent`,
          name: `${p.id} recent anomalies`,
        })),
      read: async (ctx, _uri, vars) => {
        const r = await anomalies.listFired(ctx, { project_id: vars.project_id ?? '', limit: MAX_TOOL_ANOMALIES });
        // A resource read has no cursor: it says when it is cut, and where the rest is.
        return {
          text: JSON.stringify({
            project_id: r.resolved.project.id,
            since: r.since,
            anomalies: r.anomalies,
            truncated: r.next_cursor !== null,
            ...(r.next_cursor ? { more: 'call get_anomalies with cursor', next_cursor: r.next_cursor } : {}),
          }),
        };
      },
    },
  ];
}
