import { z } from 'zod';
import type { ResourceSpec } from '../../mcp/kit/registry.js';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { CalendarDate } from '../../platform/calendar.js';
import { type ProjectsService, ProjectRef } from '../projects/index.js';
import { formatPct, formatValue } from './insights.narrative.js';
import type { InsightsService } from './insights.service.js';
import type { KpisService } from './kpis.service.js';

const GetKpisInput = z
  .object({
    project_id: ProjectRef,
    from: CalendarDate.optional().describe('Default: 6 days before to.'),
    to: CalendarDate.optional().describe('Default: yesterday.'),
    channel: z.string().min(1).max(100).optional().describe('Default: all channels.'),
  })
  .strict();

const GetKpiSeriesInput = z
  .object({
    project_id: ProjectRef,
    from: CalendarDate,
    to: CalendarDate.describe('At most 366 days after from.'),
    channel: z.string().min(1).max(100).optional().describe('Default: all channels.'),
  })
  .strict();

const GetInsightInput = z
  .object({
    project_id: ProjectRef,
    date: CalendarDate.optional().describe('Default: the latest composed day.'),
  })
  .strict();

export function insightTools(insights: InsightsService, kpis: KpisService) {
  return [
    defineTool({
      name: 'get_kpis',
      title: 'Get KPIs with deltas',
      description:
        'KPI totals for a date range (default: the last 7 complete days) against the period before. Use it to see how a project is doing.',
      input: GetKpisInput,
      view: 'kpis',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: {
        period: z.object({ from: z.string(), to: z.string(), days: z.number() }),
        previous_period: z.object({ from: z.string(), to: z.string() }),
        channel: z.string().nullable(),
        currency: z.string(),
        days_with_data: z.number(),
        kpis: z.array(
          z.object({
            metric: z.string(),
            unit: z.string(),
            current: z.number().nullable(),
            previous: z.number().nullable(),
            delta_abs: z.number().nullable(),
            delta_pct: z.number().nullable(),
          }),
        ),
        daily: z.array(z.record(z.string(), z.unknown())),
      },
      run: async (ctx, input) => {
        const { resolved, ...out } = await kpis.compare(ctx, input);
        const unit = (u: string) => u as 'money' | 'count' | 'ratio' | 'percent';
        return {
          kind: 'enveloped',
          summary: [
            `KPIs of ${resolved.project.id}${out.channel ? ` (channel ${out.channel})` : ''}, ${out.period.from} → ${out.period.to} vs ${out.previous_period.from} → ${out.previous_period.to}, in ${out.currency}:`,
            ...(out.days_with_data === 0 ? ['No KPI data in this period (has a datastream run yet?).'] : []),
            ...out.kpis.map(
              (k) =>
                `- ${k.metric}: ${formatValue(k.current, unit(k.unit), out.currency)} (${formatPct(k.delta_pct)} vs ${formatValue(k.previous, unit(k.unit), out.currency)})`,
            ),
          ],
          projectId: resolved.project.id,
          provenance: { source: 'kpis_daily', resolved_from: resolved.resolvedFrom },
          data: out,
        };
      },
    }),
    defineTool({
      name: 'get_kpi_series',
      title: 'Get daily KPI values',
      description: 'Every KPI per day for a date range, for the KPI view.',
      input: GetKpiSeriesInput,
      permission: 'data.read',
      annotations: READ_ONLY,
      visibility: ['app'],
      dataShape: {
        from: z.string(),
        to: z.string(),
        channel: z.string().nullable(),
        currency: z.string(),
        days: z.array(z.record(z.string(), z.unknown())),
      },
      run: async (ctx, input) => {
        const { resolved, ...out } = await kpis.series(ctx, input);
        return {
          kind: 'enveloped',
          summary: [
            `Daily KPIs of ${resolved.project.id}${out.channel ? ` (channel ${out.channel})` : ''}, ${out.from} → ${out.to}, in ${out.currency}: ${out.days.length} day(s) with data.`,
          ],
          projectId: resolved.project.id,
          provenance: { source: 'kpis_daily', resolved_from: resolved.resolvedFrom },
          data: out,
        };
      },
    }),
    defineTool({
      name: 'get_daily_insight',
      title: 'Get the daily insight',
      description:
        "A project-day's summary: KPI changes, fired anomalies, active context events and a narrative. Use it for what happened on a day.",
      input: GetInsightInput,
      view: 'insight',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: {
        date: z.string(),
        version: z.number(),
        inputs_hash: z.string(),
        composed_at: z.string(),
        narrative_md: z.string(),
        record: z.record(z.string(), z.unknown()),
      },
      run: async (ctx, input) => {
        const { resolved, insight } = await insights.get(ctx, input.project_id, input.date);
        const lines = insight.narrative_md.split('\n').filter((l) => l.trim() !== '');
        return {
          kind: 'enveloped',
          summary:
            lines.length > 30
              ? [...lines.slice(0, 29), `… ${lines.length - 29} more lines in data.narrative_md.`]
              : lines,
          projectId: resolved.project.id,
          provenance: {
            source: 'insights_daily',
            version: insight.version,
            inputs_hash: insight.inputs_hash,
            resolved_from: resolved.resolvedFrom,
          },
          data: {
            date: insight.date,
            version: insight.version,
            inputs_hash: insight.inputs_hash,
            composed_at: insight.composed_at,
            narrative_md: insight.narrative_md,
            record: insight.record as unknown as Record<string, unknown>,
          },
        };
      },
    }),
  ];
}

export function insightResources(insights: InsightsService, projects: ProjectsService): ResourceSpec[] {
  return [
    {
      name: 'insight-latest',
      uriTemplate: 'insight://{project_id}/latest',
      variables: { project_id: 'project' },
      title: 'Latest daily insight',
      description:
        "A project's newest daily insight (record and narrative); subscribe to hear when one is composed or recomposed.",
      mimeType: 'application/json',
      permission: 'data.read',
      list: async (ctx) =>
        (await projects.list(ctx, { limit: 200 })).items.map((p) => ({
          uri: `insight://${p.id}/latest`,
          name: `${p.id} latest insight`,
        })),
      read: async (ctx, _uri, vars) => ({
        text: JSON.stringify((await insights.get(ctx, vars.project_id ?? '')).insight),
      }),
    },
  ];
}
