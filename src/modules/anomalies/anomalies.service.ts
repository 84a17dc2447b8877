import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldViolation } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { addDays, CalendarDate, daysBetween, todayIn } from '../money/calendar.js';
import type { ContextEventsService } from '../context-events/context-events.service.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import * as repo from './anomalies.repo.js';
import * as episodes from './detection/detection.episodes.js';
import { findFocus, windowIncluding } from './anomalies.focus.js';
import { presentAnomaly, presentTriage } from './anomalies.presenter.js';
import * as triageRepo from './triage/triage.repo.js';
import { computeSeries, dateOf } from './detection/detection.evaluate.js';
import {
  DEFAULT_MIN_ABS_CHANGE,
  DEFAULT_MIN_VOLUME,
  DEFAULT_SETTINGS,
  METRICS,
  VOLUME_OF,
  anomaliesResourceUri,
  type AnomalyOutput,
  type AnomalySettingsInput,
  type EffectiveSettings,
  type GetMetricSeriesToolInput,
  type Metric,
} from './anomalies.schemas.js';

export interface FiredQuery {
  project_id: string | undefined;
  since?: string | undefined;
  to?: string | undefined;
  metric?: string | undefined;
  direction?: string | undefined;
  channel?: string | undefined;
  status?: string | undefined;
  date?: string | undefined;
  anomaly_id?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface FiredPage {
  resolved: ResolvedProject;
  since: string;
  to: string | null;
  /** The anomaly that date or anomaly_id names, on this page or not. */
  focus: AnomalyOutput | null;
  anomalies: AnomalyOutput[];
  /** Null on the last page. */
  next_cursor: string | null;
}

const FiredCursor = z.tuple([CalendarDate, z.number().min(0).max(1), z.string(), z.string()]);

/** Anomaly surveillance: settings, the set-based evaluation, and reads with correlated events. */
export class AnomaliesService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly events: ContextEventsService,
    private readonly changes: { resourceUpdated(uri: string): Promise<void> },
  ) {}

  async effectiveSettings(db: SqlExecutor, projectId: string): Promise<EffectiveSettings> {
    const stored = await repo.readSettings(db, projectId);
    return effective((stored?.settings ?? {}) as AnomalySettingsInput);
  }

  async getSettings(ctx: RequestContext, projectId: string) {
    const { project } = await this.projects.resolve(ctx, projectId, 'data.read');
    const stored = await repo.readSettings(this.db, project.id);
    const settings = (stored?.settings ?? {}) as AnomalySettingsInput;
    return {
      project_id: project.id,
      settings,
      effective: effective(settings),
      updated_at: stored ? new Date(stored.updated_at).toISOString() : null,
    };
  }

  /** PUT replaces the settings whole; cross-field rules give one errors[] entry per violation. */
  async putSettings(ctx: RequestContext, projectId: string, input: AnomalySettingsInput) {
    const { project } = await this.projects.resolve(ctx, projectId, 'admin');
    const violations = crossFieldViolations(input);
    if (violations.length) throw new ValidationError(violations);
    const updatedAt = await repo.writeSettings(this.db, project.id, input, ctx.actor.subject, ctx.clock.now());
    return {
      project_id: project.id,
      settings: input,
      effective: effective(input),
      updated_at: new Date(updatedAt).toISOString(),
    };
  }

  /**
   * Recomputes [from, to] of a project inside `tx` (the ingestion transaction, or an operator's
   * re-evaluation). Reads history back to the frame length before `from`.
   */
  async evaluateRange(
    tx: SqlExecutor,
    projectId: string,
    from: string,
    to: string,
  ): Promise<{ rows: number; fired: number }> {
    const settings = await this.effectiveSettings(tx, projectId);
    return repo.evaluate(tx, projectId, from, to, addDays(from, -repo.lookbackDays(settings)), settings);
  }

  /** Operator action: re-evaluate a range (default everything) after changing the settings. */
  async evaluate(ctx: RequestContext, q: { project_id: string; from?: string | undefined; to?: string | undefined }) {
    const { project } = await this.projects.resolve(ctx, q.project_id, 'admin');
    const range = await repo.kpiDateRange(this.db, project.id);
    const from = q.from ?? range.first;
    const to = q.to ?? range.last;
    if (!from || !to) return { project_id: project.id, from, to, rows: 0, fired: 0 };
    if (from > to)
      throw new ValidationError([{ path: 'query.from', message: `from (${from}) must be on or before to (${to})` }]);
    const result = await this.db.transaction((tx) => this.evaluateRange(tx, project.id, from, to));
    await this.changes.resourceUpdated(anomaliesResourceUri(project.id));
    return { project_id: project.id, from, to, ...result };
  }

  /**
   * Anomalies with a fired day in [since, to], a page at a time (keyset on the list's own order); the
   * window widens to include the day or the anomaly a link names (`date`, `anomaly_id`).
   */
  async listFired(ctx: RequestContext, q: FiredQuery): Promise<FiredPage> {
    const resolved = await this.projects.resolve(ctx, q.project_id, 'data.read');
    const focusRow = await findFocus(this.db, resolved.project.id, q);
    if (focusRow === undefined) throw anomalyNotFound(q.anomaly_id ?? '');
    const { since, to } = windowIncluding(
      { since: q.since ?? addDays(todayIn(ctx.clock, resolved.project.timezone), -30), to: q.to ?? null },
      q.anomaly_id ? focusRow?.first_date : q.date,
    );
    const limit = q.limit ?? 100;
    const rows = await episodes.listEpisodes(this.db, {
      projectId: resolved.project.id,
      since,
      until: to ?? undefined,
      metric: q.metric,
      direction: q.direction,
      channel: q.channel,
      status: q.status,
      after: decodeCursor(q.cursor, FiredCursor),
      limit: limit + 1,
    });
    const page = pageOf(rows, limit, episodes.episodeKeyOf);
    const [focus] = focusRow ? await this.withEvents(resolved.project.id, [focusRow]) : [];
    return {
      resolved,
      since,
      to,
      focus: focus ?? null,
      anomalies: await this.withEvents(resolved.project.id, page.items),
      next_cursor: page.next_cursor,
    };
  }

  /**
   * One metric's daily series with the trailing baseline the evaluation uses for each day (the
   * current settings), for a chart: the band is mean ± threshold × stddev. Nothing is written.
   */
  async metricSeries(ctx: RequestContext, q: GetMetricSeriesToolInput) {
    const resolved = await this.projects.resolve(ctx, q.project_id, 'data.read');
    const projectId = resolved.project.id;
    const to = q.to ?? addDays(todayIn(ctx.clock, resolved.project.timezone), -1);
    const from = q.from ?? addDays(to, -55);
    if (from > to)
      throw new ValidationError([{ path: 'from', message: `from (${from}) must be on or before to (${to})` }]);
    if (daysBetween(from, to) + 1 > 366)
      throw new ValidationError([{ path: 'from', message: 'the range may span at most 366 days' }]);
    const settings = await this.effectiveSettings(this.db, projectId);
    const rule = settings.metrics.find((m) => m.metric === q.metric)!;
    const historyFrom = addDays(from, -repo.lookbackDays(settings));
    const [series] = await computeSeries(this.db, [projectId], from, to, historyFrom, settings, {
      channel: q.channel,
      metric: q.metric,
    });
    const points = (series?.rows ?? []).map((r) => ({
      date: dateOf(r.d),
      value: r.value,
      baseline_mean: r.expected,
      baseline_stddev: r.scale,
      training_size: r.n,
      z: r.z,
      score: r.score,
      status: r.status,
      fired: r.fired,
      precedent: r.precedent,
      explained_by: r.explainedBy ?? null,
      explained_by_event: r.explainedByEvent ?? null,
    }));
    const currency = (await repo.kpiCurrency(this.db, projectId, from, to)) ?? resolved.project.reporting_currency;
    return {
      resolved,
      metric: q.metric,
      channel: q.channel,
      from,
      to,
      currency: currency.trim(),
      rule: {
        enabled: rule.enabled,
        threshold: rule.threshold,
        direction: rule.direction,
        min_training_days: rule.min_training_days,
        min_relative_change: rule.min_relative_change,
        window_days: settings.window_days,
        seasonality: settings.seasonality,
      },
      points: points.map((p) => ({ ...p, fired: rule.enabled && p.fired })),
    };
  }

  /** System read (the insight composer, facts): fired anomalies with the events active that day. */
  async firedFor(
    projectId: string,
    q: {
      since: string;
      until?: string | undefined;
      metric?: string | undefined;
      direction?: string | undefined;
      channel?: string | undefined;
      limit: number;
    },
  ): Promise<AnomalyOutput[]> {
    return this.withEvents(projectId, await episodes.listEpisodes(this.db, { projectId, ...q }));
  }

  /**
   * System read: the other series an anomaly explains (a total or a ratio that moved with it on its
   * days, anomalies.explained.ts), each once, for messages that name them (alerts).
   */
  async movedWithIt(
    projectId: string,
    a: Pick<AnomalyOutput, 'channel' | 'metric' | 'first_date' | 'last_date'>,
  ): Promise<{ metric: string; channel: string }[]> {
    const rows = await episodes.explainedBy(this.db, { project_id: projectId, ...a });
    const seen = new Map(rows.map((r) => [`${r.metric}|${r.channel}`, { metric: r.metric, channel: r.channel }]));
    return [...seen.values()];
  }

  /** System read: how many anomalies have a fired day in [since, until]. */
  async countFor(projectId: string, since: string, until: string): Promise<number> {
    return episodes.countEpisodes(this.db, projectId, since, until);
  }

  /**
   * One anomaly by id with every evaluated day from its first to its last day; for callers that
   * already hold the id (the explain and triage features, tools). Not found, or in a project the
   * caller may not read: the same NotFoundError (an id does not reveal another tenant's anomaly).
   */
  async getById(ctx: RequestContext, id: string) {
    const row = await episodes.findEpisode(this.db, id);
    if (!row) throw anomalyNotFound(id);
    let resolved: ResolvedProject;
    try {
      resolved = await this.projects.resolve(ctx, row.project_id, 'data.read');
    } catch {
      throw anomalyNotFound(id);
    }
    const [anomaly] = await this.withEvents(row.project_id, [row]);
    const days = (await episodes.episodeDays(this.db, row)).map(
      ({
        explained_by_channel: channel,
        explained_by_metric: metric,
        explained_by_event: event,
        explained_by_event_title: title,
        explained_by_event_type: eventType,
        ...day
      }) => ({
        ...day,
        explained_by: channel && metric ? { channel, metric } : null,
        // A deleted event keeps its id until the day is evaluated again: named by id alone.
        explained_by_event: event ? { id: event, title: title ?? event, event_type: eventType ?? '' } : null,
      }),
    );
    const movedWithIt = await episodes.explainedBy(this.db, row);
    return { resolved, anomaly: anomaly!, days, movedWithIt, triage: await this.triageOf(ctx, id) };
  }

  /** The whole triage, with the linked event as the caller may read it (null when gone). */
  private async triageOf(ctx: RequestContext, id: string) {
    const row = await triageRepo.readTriage(this.db, id);
    const eventId = row?.context_event_id;
    const event = eventId ? await this.events.get(ctx, eventId).catch(() => null) : null;
    return presentTriage(
      row,
      event && { id: event.id, title: event.title, event_type: event.event_type, event_date: event.event_date },
    );
  }

  /** System read (no caller to authorize): one anomaly by id, or undefined. */
  async findById(id: string): Promise<AnomalyOutput | undefined> {
    const row = await episodes.findEpisode(this.db, id);
    return row ? (await this.withEvents(row.project_id, [row]))[0] : undefined;
  }

  private async withEvents(projectId: string, rows: episodes.EpisodeWithPeak[]): Promise<AnomalyOutput[]> {
    const byDate = new Map<string, Awaited<ReturnType<ContextEventsService['activeOn']>>>();
    for (const date of new Set(rows.map((r) => r.peak_date)))
      byDate.set(date, await this.events.activeOn(projectId, date));
    return rows.map((row) => presentAnomaly(row, byDate.get(row.peak_date) ?? []));
  }
}

function anomalyNotFound(id: string) {
  return new NotFoundError('anomaly_not_found', `Anomaly ${id} does not exist.`, {
    hint: 'List anomalies with get_anomalies (REST: GET /api/anomalies) and use an id from there.',
  });
}

export function effective(input: AnomalySettingsInput): EffectiveSettings {
  const base = { ...DEFAULT_SETTINGS, ...stripUndefined(input) };
  if (base.seasonality === 'day_of_week' && input.min_training_days === undefined)
    base.min_training_days = Math.min(base.min_training_days, base.seasonal_weeks);
  return {
    window_days: base.window_days,
    seasonality: base.seasonality,
    seasonal_weeks: base.seasonal_weeks,
    baseline: base.baseline,
    exclude_anomalies: base.exclude_anomalies,
    level_shifts: base.level_shifts,
    level_shift_days: base.level_shift_days,
    precedent_days: base.precedent_days,
    precedent_margin: base.precedent_margin,
    // Given alone, precedent_margin is both sides' (as before precedent_margin_drop existed).
    precedent_margin_drop:
      input.precedent_margin_drop ?? input.precedent_margin ?? DEFAULT_SETTINGS.precedent_margin_drop,
    sustained_days: base.sustained_days,
    explain_related: base.explain_related,
    // One spelling per type, each once (the schema normalized them; a stored list may repeat one).
    expected_event_types: [...new Set(base.expected_event_types)],
    threshold: base.threshold,
    min_training_days: base.min_training_days,
    min_relative_change: base.min_relative_change,
    min_abs_change: input.min_abs_change ?? null,
    direction: base.direction,
    metrics: METRICS.map((metric: Metric) => {
      const o = input.metrics?.[metric] ?? {};
      return {
        metric,
        enabled: o.enabled ?? true,
        threshold: o.threshold ?? base.threshold,
        direction: o.direction ?? base.direction,
        min_relative_change: o.min_relative_change ?? base.min_relative_change,
        min_abs_change: o.min_abs_change ?? input.min_abs_change ?? DEFAULT_MIN_ABS_CHANGE[metric],
        min_training_days: o.min_training_days ?? base.min_training_days,
        ...volumeGuard(metric, o.min_volume),
      };
    }),
  };
}

function volumeGuard(metric: Metric, setting: number | undefined) {
  const volumeMetric = VOLUME_OF[metric] ?? null;
  const min = setting ?? DEFAULT_MIN_VOLUME[metric] ?? 0;
  return { volume_metric: volumeMetric, min_volume: volumeMetric && min > 0 ? min : null };
}

/** A training minimum the baseline can never reach would silence surveillance: refuse it. */
function crossFieldViolations(input: AnomalySettingsInput): FieldViolation[] {
  const s = effective(input);
  const capacity = s.seasonality === 'day_of_week' ? s.seasonal_weeks : s.window_days;
  const what =
    s.seasonality === 'day_of_week' ? `seasonal_weeks (${s.seasonal_weeks})` : `window_days (${s.window_days})`;
  const out: FieldViolation[] = [];
  if (input.min_training_days !== undefined && input.min_training_days > capacity) {
    out.push({
      path: 'body.min_training_days',
      message: `must be at most ${what}: the baseline never holds more points`,
    });
  }
  for (const metric of METRICS) {
    if (input.metrics?.[metric]?.min_volume !== undefined && !VOLUME_OF[metric])
      out.push({
        path: `body.metrics.${metric}.min_volume`,
        message: 'only ratio metrics (roas, cpa, ctr, cvr) have a volume guard',
      });
    const m = input.metrics?.[metric]?.min_training_days;
    if (m !== undefined && m > capacity)
      out.push({
        path: `body.metrics.${metric}.min_training_days`,
        message: `must be at most ${what}: the baseline never holds more points`,
      });
  }
  return out;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && k !== 'metrics')) as Partial<T>;
}
