import type { RequestContext } from '../../../platform/context/request-context.js';
import type { Database } from '../../../platform/db/database.js';
import { projectRole } from '../../../platform/auth/actor.js';
import { ValidationError } from '../../../platform/errors.js';
import type { ContextEventsService } from '../../context-events/index.js';
import { addDays, daysBetween } from '../../../platform/calendar.js';
import type { ProjectsService, ResolvedProject } from '../../projects/index.js';
import {
  type BaseMeasure,
  dayWeights,
  decomposeAdditive,
  decomposeRatio,
  foldTail,
  isRatio,
  RATIO_PARTS,
  unavailable,
  weightedParts,
} from './explain.math.js';
import { findEpisode } from '../anomalies.repo.js';
import { anomalyNotFound } from '../anomalies.service.js';
import * as repo from './explain.repo.js';
import { type ExplainOutput, MAX_CHECKS, MAX_CURRENT_DAYS, MAX_PARTS, MAX_SKILLS } from './explain.schemas.js';
import { type Metric, TOTAL_CHANNEL } from '../anomalies.schemas.js';

/** What to explain: one series over the anomaly's days. */
export interface ExplainRequest {
  metric: Metric;
  channel: string;
  first_date: string;
  last_date: string;
  peak_date?: string | null | undefined;
  id?: string | null | undefined;
  /**
   * The baseline to compare with. Default: the window the detector compared first_date with
   * (its anomalies_daily row, which starts at a level shift's anchor), on the same weekdays when
   * that row is day-of-week seasonal, without the days the detector excluded from baselines.
   */
  baseline?: { from: string; to: string; seasonality: 'none' | 'day_of_week' } | undefined;
}

export type Explanation = Omit<ExplainOutput, 'project_id'> & { resolved: ResolvedProject };

/**
 * explain_anomaly: which parts moved a fired anomaly (channels of the total, campaigns of a
 * channel; rate and mix for ratio KPIs), the context events of its days, the data-quality checks of
 * the runs that wrote those days, and the Skills about its metric. Reads only.
 */
export class AnomalyExplainService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly events: ContextEventsService,
  ) {}

  /**
   * The explanation of anomaly `id`. Without a grant on its project the anomaly does not exist for
   * the caller (404, so ids cannot be probed); `projectRef`, when given (the tool), must be its
   * project. The tool's `default` means the anomaly's own project: the id already names it.
   */
  async explain(ctx: RequestContext, id: string, projectRef?: string): Promise<Explanation> {
    const ep = await findEpisode(this.db, id);
    if (!ep || projectRole(ctx.actor, ep.project_id) === undefined) throw anomalyNotFound(id, true);
    const ref = projectRef && projectRef !== 'default' ? projectRef : ep.project_id;
    const resolved = await this.projects.resolve(ctx, ref, 'data.read');
    if (resolved.project.id !== ep.project_id) throw anomalyNotFound(id, true);
    const { id: _, project_id: __, ...series } = ep;
    return { resolved, ...(await this.explainFor(ep.project_id, { ...series, metric: series.metric as Metric, id })) };
  }

  async explainSeries(ctx: RequestContext, projectRef: string | undefined, q: ExplainRequest): Promise<Explanation> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'data.read');
    return { resolved, ...(await this.explainFor(resolved.project.id, q)) };
  }

  /** The explanation of a project the caller was already authorized for (the id-keyed read). */
  async explainFor(projectId: string, q: ExplainRequest): Promise<Omit<Explanation, 'resolved'>> {
    if (q.last_date < q.first_date)
      throw new ValidationError([{ path: 'last_date', message: `must be on or after first_date (${q.first_date})` }]);
    // An episode longer than the cap is explained by its last MAX_CURRENT_DAYS days.
    const first =
      daysBetween(q.first_date, q.last_date) >= MAX_CURRENT_DAYS
        ? addDays(q.last_date, -(MAX_CURRENT_DAYS - 1))
        : q.first_date;
    const current = dateRange(first, q.last_date);
    const evaluated = await repo.evaluatedDays(this.db, {
      projectId,
      metric: q.metric,
      channel: q.channel,
      from: addDays(q.first_date, -400),
      to: q.last_date,
    });
    const firstRow = evaluated.find((r) => r.date === q.first_date);
    const peakDate = q.peak_date ?? pickPeak(evaluated.filter((r) => r.date >= first && r.fired))?.date ?? null;
    const peak = evaluated.find((r) => r.date === peakDate) ?? firstRow;
    const baselineSpec = q.baseline ?? {
      from: firstRow?.window_from ?? addDays(q.first_date, -28),
      to: firstRow?.window_to ?? addDays(q.first_date, -1),
      seasonality: firstRow?.seasonality === 'day_of_week' ? ('day_of_week' as const) : ('none' as const),
    };
    if (daysBetween(baselineSpec.from, baselineSpec.to) > 366)
      throw new ValidationError([{ path: 'baseline', message: 'the baseline may span at most 366 days' }]);
    // The days the detector itself left out of later baselines (fired, low volume, triaged expected).
    const excluded = new Set(evaluated.filter((r) => r.excluded).map((r) => r.date));
    const weekdays = new Set(current.map(weekday));
    const candidates = dateRange(baselineSpec.from, baselineSpec.to).filter(
      (d) => d < first && (baselineSpec.seasonality !== 'day_of_week' || weekdays.has(weekday(d))),
    );
    const baseline = candidates.filter((d) => !excluded.has(d));

    const dates = [...current, ...baseline];
    const [rows, series] = await Promise.all([
      repo.partDays(this.db, { projectId, channel: q.channel, dates }),
      repo.seriesDays(this.db, { projectId, channel: q.channel, dates }),
    ]);
    const curData = current.filter((d) => series.dates.has(d));
    const baseData = baseline.filter((d) => series.dates.has(d));
    const weekly = baselineSpec.seasonality === 'day_of_week' || /weekly/.test(firstRow?.model ?? '');
    const weights = dayWeights(curData, baseData, weekly && !q.baseline);
    const parts = weightedParts(rows, weights);
    const ratio = isRatio(q.metric) ? RATIO_PARTS[q.metric] : null;
    const withData = { current: curData.length ? 1 : 0, baseline: baseData.length ? 1 : 0 };
    const breakdown = q.channel === TOTAL_CHANNEL ? 'channel' : 'campaign';
    const decomposition = foldTail(
      // A channel's KPIs loaded without campaign rows have nothing to split: say so, not "0 → 0".
      rows.length === 0 && curData.length > 0
        ? unavailable(
            isRatio(q.metric) ? 'rate_mix' : 'additive',
            `no ${breakdown} rows for these days (${breakdown === 'campaign' ? 'ad_performance_daily' : 'kpis_daily'})`,
          )
        : isRatio(q.metric)
          ? decomposeRatio(q.metric, parts)
          : decomposeAdditive(q.metric as BaseMeasure, parts, withData),
      MAX_PARTS,
    );

    const checks = await repo.checksCovering(this.db, { projectId, from: first, to: q.last_date, limit: MAX_CHECKS });
    const counts = { pass: 0, warn: 0, fail: 0, error: 0 };
    for (const c of checks) if (c.status in counts) counts[c.status as keyof typeof counts] += 1;
    const keys = await repo.keysForMetric(this.db, projectId, q.metric);
    const skills = await repo.skillsForKeys(this.db, projectId, keys, MAX_SKILLS);

    return {
      anomaly: {
        id: q.id ?? null,
        metric: q.metric,
        channel: q.channel,
        first_date: q.first_date,
        last_date: q.last_date,
        peak_date: peakDate,
        direction: peak?.direction ?? null,
        value: peak?.value ?? null,
        baseline: peak?.baseline_mean ?? null,
        z: peak?.z ?? null,
      },
      currency: series.currency,
      periods: {
        current: { from: first, to: q.last_date, days: current.length, days_with_data: curData.length },
        baseline: {
          from: baselineSpec.from,
          to: baselineSpec.to,
          seasonality: baselineSpec.seasonality,
          days: baseline.length,
          days_with_data: baseData.length,
          weighting: weights.weighting,
          excluded_days: candidates.length - baseline.length,
        },
      },
      decomposition: {
        ...decomposition,
        breakdown,
        numerator: ratio?.numerator ?? null,
        denominator: ratio?.denominator ?? null,
      },
      context_events: await this.eventsDuring(projectId, first, q.last_date),
      data_quality: {
        verdict:
          checks.length === 0
            ? 'no_checks'
            : counts.fail + counts.error > 0
              ? 'failed'
              : counts.warn > 0
                ? 'warnings'
                : 'passed',
        counts,
        checks: checks.map((c) => ({
          id: c.id,
          monitor: c.monitor,
          status: c.status,
          dataset: c.dataset,
          datastream_id: c.datastream_id,
          run_id: c.run_id,
          run_window: { from: c.window_from, to: c.window_to },
          observed: c.observed,
          threshold: c.threshold,
          message: c.message,
          finished_at: new Date(c.finished_at).toISOString(),
        })),
      },
      skills: {
        keys,
        matches: skills.map((s) => ({ ...s, next: { tool: 'get_procedure' as const, arguments: { name: s.name } } })),
      },
    };
  }

  /** Events active on any day of [from, to], once each, in the order they started (one query). */
  private async eventsDuring(projectId: string, from: string, to: string): Promise<ExplainOutput['context_events']> {
    return (await this.events.activeDuring(projectId, from, to)).map((e) => ({
      id: e.id,
      event_type: e.event_type,
      title: e.title,
      event_date: e.event_date,
      active_until: e.active_until,
    }));
  }
}

function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

function pickPeak(rows: repo.EvaluatedDay[]): repo.EvaluatedDay | undefined {
  return rows.reduce<repo.EvaluatedDay | undefined>(
    (best, r) => (!best || Math.abs(r.z ?? 0) > Math.abs(best.z ?? 0) ? r : best),
    undefined,
  );
}
