import { createHash } from 'node:crypto';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import { addDays } from '../../platform/calendar.js';
import type { AnomaliesService } from '../anomalies/index.js';
import type { ContextEventsService } from '../context-events/index.js';
import type { ProjectsService, ResolvedProject } from '../projects/index.js';
import { deltas, narrative, type InsightRecord } from './insights.narrative.js';
import * as repo from './insights.repo.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const insightResourceUri = (projectId: string) => `insight://${projectId}/latest`;

export interface InsightOutput {
  project_id: string;
  date: string;
  version: number;
  inputs_hash: string;
  composed_at: string;
  record: InsightRecord;
  narrative_md: string;
}

export function presentInsight(row: repo.InsightRow): InsightOutput {
  return {
    project_id: row.project_id,
    date: row.date,
    version: row.version,
    inputs_hash: row.inputs_hash,
    composed_at: new Date(row.composed_at).toISOString(),
    record: row.record as unknown as InsightRecord,
    narrative_md: row.narrative_md,
  };
}

/**
 * The daily insight composer: KPI deltas (day over day, same weekday last week), the anomalies
 * that fired and the active context events for one project-day, as a record and a templated
 * narrative. The inputs' hash is its version key: late data that changes any input recomposes it
 * (version + 1); a recomposition from identical inputs writes nothing.
 */
export class InsightsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly anomalies: AnomaliesService,
    private readonly events: ContextEventsService,
  ) {}

  /** Composes one project-day; answers the stored row when it changed, undefined otherwise. */
  async compose(projectId: string, date: string, now: Date): Promise<repo.InsightRow | undefined> {
    const project = await this.projects.findRow(projectId);
    if (!project) return undefined;
    const totals = await repo.kpiTotals(this.db, projectId, addDays(date, -7), date);
    const byDate = new Map(totals.map((t) => [t.date, t]));
    const day = byDate.get(date);
    if (!day) return undefined;
    const fired = await this.anomalies.firedFor(projectId, { since: date, until: date, limit: 50 });
    const active = await this.events.activeOn(projectId, date);
    const record: InsightRecord = {
      project_id: projectId,
      date,
      weekday: WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!,
      currency: day.currency.trim(),
      kpis: deltas(day, byDate.get(addDays(date, -1)), byDate.get(addDays(date, -7))),
      anomalies: fired.map((a) => ({
        id: a.id,
        kind: a.kind,
        first_date: a.first_date,
        last_date: a.last_date,
        peak_date: a.peak_date,
        score: a.score,
        severity: a.severity,
        metric: a.metric,
        channel: a.channel,
        direction: a.direction,
        value: a.value,
        baseline_mean: a.baseline_mean,
        baseline_stddev: a.baseline_stddev,
        z: a.z,
        relative_change: a.relative_change,
        training_size: a.training_size,
      })),
      context_events: active.map((e) => ({
        id: e.id,
        event_type: e.event_type,
        title: e.title,
        event_date: e.event_date,
        active_until: e.active_until,
      })),
    };
    const inputs_hash = createHash('sha256').update(JSON.stringify(record)).digest('hex');
    return repo.upsertInsight(this.db, {
      project_id: projectId,
      date,
      inputs_hash,
      record: record as unknown as Record<string, unknown>,
      narrative_md: narrative(record),
      composed_at: now,
    });
  }

  /** Every date of a range that has KPIs; answers the ones whose insight changed. */
  async composeRange(projectId: string, from: string, to: string, now: Date): Promise<repo.InsightRow[]> {
    const changed: repo.InsightRow[] = [];
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const row = await this.compose(projectId, d, now);
      if (row) changed.push(row);
    }
    return changed;
  }

  async get(
    ctx: RequestContext,
    projectRef: string | undefined,
    date?: string,
  ): Promise<{ resolved: ResolvedProject; insight: InsightOutput }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'data.read');
    const row = date
      ? await repo.findInsight(this.db, resolved.project.id, date)
      : await repo.latestInsight(this.db, resolved.project.id);
    if (!row) {
      throw new NotFoundError(
        'insight_not_found',
        date
          ? `No daily insight for ${resolved.project.id} on ${date}.`
          : `Project ${resolved.project.id} has no daily insight yet.`,
        {
          hint: 'Insights are composed after each ingestion run; run a datastream (run_datastream) or pick a date with data.',
        },
      );
    }
    return { resolved, insight: presentInsight(row) };
  }

  /** System read (alert digests): one project-day's insight, without a grant check. */
  async findFor(projectId: string, date: string): Promise<InsightOutput | undefined> {
    const row = await repo.findInsight(this.db, projectId, date);
    return row ? presentInsight(row) : undefined;
  }

  async list(ctx: RequestContext, projectId: string, before: string | undefined, limit: number) {
    const { project } = await this.projects.resolve(ctx, projectId, 'data.read');
    const rows = await repo.listInsights(this.db, project.id, before, limit + 1);
    const items = rows.slice(0, limit).map(presentInsight);
    return { insights: items, next_cursor: rows.length > limit ? items[items.length - 1]!.date : null };
  }
}
