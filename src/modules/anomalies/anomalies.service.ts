import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { addDays, CalendarDate, daysBetween, todayIn } from '../../platform/calendar.js';
import type { ContextEventsService } from '../context-events/index.js';
import type { ProjectsService, ResolvedProject } from '../projects/index.js';
import * as repo from './anomalies.repo.js';
import { presentAnomaly, presentTriage } from './anomalies.presenter.js';
import { anomaliesResourceUri, type AnomalyOutput, type GetMetricSeriesToolInput } from './anomalies.schemas.js';
import * as detection from './detection/index.js';
import type { AnomalySettingsInput, EffectiveSettings } from './detection/index.js';
import * as triageRepo from './triage/triage.repo.js';

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
    return detection.effective((stored?.settings ?? {}) as AnomalySettingsInput);
  }

  async getSettings(ctx: RequestContext, projectId: string) {
    const { project } = await this.projects.resolve(ctx, projectId, 'data.read');
    const stored = await repo.readSettings(this.db, project.id);
    const settings = (stored?.settings ?? {}) as AnomalySettingsInput;
    return {
      project_id: project.id,
      settings,
      effective: detection.effective(settings),
      updated_at: stored ? new Date(stored.updated_at).toISOString() : null,
    };
  }

  /** PUT replaces the settings whole; cross-field rules give one errors[] entry per violation. */
  async putSettings(ctx: RequestContext, projectId: string, input: AnomalySettingsInput) {
    const { project } = await this.projects.resolve(ctx, projectId, 'admin');
    const violations = detection.crossFieldViolations(input);
    if (violations.length) throw new ValidationError(violations);
    const updatedAt = await repo.writeSettings(this.db, project.id, input, ctx.actor.subject, ctx.clock.now());
    return {
      project_id: project.id,
      settings: input,
      effective: detection.effective(input),
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
    return detection.evaluate(tx, projectId, from, to, addDays(from, -detection.lookbackDays(settings)), settings);
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
    const rows = await repo.listEpisodes(this.db, {
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
    const page = pageOf(rows, limit, repo.episodeKeyOf);
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
    const historyFrom = addDays(from, -detection.lookbackDays(settings));
    const [series] = await detection.computeSeries(this.db, [projectId], from, to, historyFrom, settings, {
      channel: q.channel,
      metric: q.metric,
    });
    const points = (series?.rows ?? []).map((r) => ({
      date: detection.dateOf(r.d),
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
    return this.withEvents(projectId, await repo.listEpisodes(this.db, { projectId, ...q }));
  }

  /**
   * System read: the other series an anomaly explains (a total or a ratio that moved with it on its
   * days, detection.explained.ts), each once, for messages that name them (alerts).
   */
  async movedWithIt(
    projectId: string,
    a: Pick<AnomalyOutput, 'channel' | 'metric' | 'first_date' | 'last_date'>,
  ): Promise<{ metric: string; channel: string }[]> {
    const rows = await repo.explainedBy(this.db, { project_id: projectId, ...a });
    const seen = new Map(rows.map((r) => [`${r.metric}|${r.channel}`, { metric: r.metric, channel: r.channel }]));
    return [...seen.values()];
  }

  /** System read: how many anomalies have a fired day in [since, until]. */
  async countFor(projectId: string, since: string, until: string): Promise<number> {
    return repo.countEpisodes(this.db, projectId, since, until);
  }

  /**
   * One anomaly by id with every evaluated day from its first to its last day; for callers that
   * already hold the id (the explain and triage features, tools). Not found, or in a project the
   * caller may not read: the same NotFoundError (an id does not reveal another tenant's anomaly).
   */
  async getById(ctx: RequestContext, id: string) {
    const row = await repo.findEpisode(this.db, id);
    if (!row) throw anomalyNotFound(id);
    let resolved: ResolvedProject;
    try {
      resolved = await this.projects.resolve(ctx, row.project_id, 'data.read');
    } catch {
      throw anomalyNotFound(id);
    }
    const [anomaly] = await this.withEvents(row.project_id, [row]);
    const days = (await repo.episodeDays(this.db, row)).map(
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
    const movedWithIt = await repo.explainedBy(this.db, row);
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
    const row = await repo.findEpisode(this.db, id);
    return row ? (await this.withEvents(row.project_id, [row]))[0] : undefined;
  }

  private async withEvents(projectId: string, rows: repo.EpisodeWithPeak[]): Promise<AnomalyOutput[]> {
    const byDate = new Map<string, Awaited<ReturnType<ContextEventsService['activeOn']>>>();
    for (const date of new Set(rows.map((r) => r.peak_date)))
      byDate.set(date, await this.events.activeOn(projectId, date));
    return rows.map((row) => presentAnomaly(row, byDate.get(row.peak_date) ?? []));
  }
}

/**
 * The one not-found error of an anomaly, whether it does not exist or sits in a project the caller
 * may not read (an id does not reveal another tenant's anomaly). `inProject`: the caller asked
 * within a project (the explanation), and the message says so.
 */
export function anomalyNotFound(id: string, inProject = false): NotFoundError {
  return inProject
    ? new NotFoundError('anomaly_not_found', `Anomaly ${id} does not exist in this project.`, {
        hint: 'List fired anomalies with get_anomalies (or GET /api/anomalies) and pass one of their ids.',
      })
    : new NotFoundError('anomaly_not_found', `Anomaly ${id} does not exist.`, {
        hint: 'List anomalies with get_anomalies (REST: GET /api/anomalies) and use an id from there.',
      });
}

/** What a link names: an anomaly by id, or a day (of a series when metric and channel are given). */
interface FocusQuery {
  anomaly_id?: string | undefined;
  date?: string | undefined;
  metric?: string | undefined;
  channel?: string | undefined;
  direction?: string | undefined;
}

interface ListWindow {
  since: string;
  to: string | null;
}

/**
 * The anomaly a link names, or null when the link names none (or nothing of the series fired that
 * day); undefined when the id is not an anomaly of this project (the caller answers not found).
 */
async function findFocus(
  db: SqlExecutor,
  projectId: string,
  q: FocusQuery,
): Promise<repo.EpisodeWithPeak | null | undefined> {
  if (q.anomaly_id) {
    const row = await repo.findEpisode(db, q.anomaly_id);
    return row && row.project_id === projectId ? row : undefined;
  }
  if (!q.date) return null;
  const onDay = await repo.listEpisodes(db, {
    projectId,
    since: q.date,
    until: q.date,
    metric: q.metric,
    channel: q.channel,
    direction: q.direction,
    limit: 20,
  });
  // A link written for a peak day names that anomaly even where another of the series spans the day.
  return onDay.find((e) => e.peak_date === q.date) ?? onDay[0] ?? null;
}

/** The window widened to include `day`: a link opens what it names whatever its age. */
function windowIncluding(window: ListWindow, day: string | undefined): ListWindow {
  if (!day) return window;
  return {
    since: day < window.since ? day : window.since,
    to: window.to !== null && window.to < day ? day : window.to,
  };
}
