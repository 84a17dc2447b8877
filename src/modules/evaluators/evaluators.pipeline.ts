import type { ServerEvent } from '@modelcontextprotocol/server';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import { addDays, todayIn } from '../../platform/calendar.js';
import { anomaliesResourceUri, type AnomaliesService } from '../anomalies/index.js';
import type { DataQualityService } from '../data-quality/index.js';
import type { FlowsService } from '../flows/index.js';
import { insightResourceUri, type InsightsService } from '../insights/index.js';
import type { Fact, FactsService } from '../facts/index.js';
import type { ProjectsService } from '../projects/index.js';
import * as repo from './evaluators.repo.js';

export const AFTER_RUN_QUEUE = 'evaluators.after_run';
export const COMPOSE_QUEUE = 'insights.compose';
/** How long an after-run job may run (pg-boss expiry), and so how long its claim on a run lasts. */
const AFTER_RUN_EXPIRE_SECONDS = 1800;
/** Late data older than this is re-evaluated but its old insights are not recomposed. */
const RECOMPOSE_DAYS = 62;

/**
 * What happens after a run commits. The anomalies model wrote the run's outbox row in the
 * ingestion transaction; the run's `run://` update (seen by every replica through the ChangeFeed)
 * makes a working process queue `evaluators.after_run` for it, and the scheduler's tick sweeps
 * any row a crash left behind. The job runs the data-quality monitors and publishes the facts;
 * the composer queue reacts to `dataset.transformed` and `anomaly.detected`.
 */
export class EvaluatorPipeline {
  private readonly afterRunQueue: QueueHandle<{ run_id: string }>;
  readonly composeQueue: QueueHandle<{ fact: Fact }>;

  constructor(
    private readonly deps: {
      db: Database;
      jobs: JobQueues;
      feed: {
        subscribe(listener: (event: ServerEvent) => void): () => void;
        resourceUpdated(uri: string): Promise<void>;
      };
      clock: Clock;
      log: Logger;
      anomalies: AnomaliesService;
      insights: InsightsService;
      dq: DataQualityService;
      facts: FactsService;
      flows: FlowsService;
      projects: ProjectsService;
    },
  ) {
    this.afterRunQueue = deps.jobs.define<{ run_id: string }>({
      name: AFTER_RUN_QUEUE,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: AFTER_RUN_EXPIRE_SECONDS,
      handler: (job) => this.afterRun(job.data.run_id),
    });
    this.composeQueue = deps.jobs.define<{ fact: Fact }>({
      name: COMPOSE_QUEUE,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 1800,
      handler: (job) => this.composeFor(job.data.fact),
    });
    deps.facts.on('dataset.transformed', this.composeQueue);
    deps.facts.on('anomaly.detected', this.composeQueue);
    deps.feed.subscribe((event) => {
      if (event.kind !== 'resource_updated' || !event.uri.startsWith('run://')) return;
      const runId = event.uri.slice(event.uri.lastIndexOf('/') + 1);
      void this.signal(runId).catch((err: unknown) => {
        // The process stopped its jobs while the signal was in flight (shutdown): nothing is lost,
        // the outbox row stays unsettled and the next sweep queues it.
        if (!deps.jobs.started) return;
        deps.log.warn({ err: { message: (err as Error).message } }, 'after-run signal failed');
      });
    });
  }

  /** Queues the after-run job for a committed run not yet settled (only in working processes). */
  private async signal(runId: string): Promise<void> {
    if (!this.deps.jobs.working || !this.deps.jobs.started) return;
    if (await repo.isUnsettled(this.deps.db, runId))
      await this.afterRunQueue.send({ run_id: runId }, { singletonKey: runId, singletonSeconds: 120 });
  }

  /** Re-queues outbox rows nobody settled (a process died between commit and signal). */
  async sweep(now: Date): Promise<number> {
    const runIds = await repo.listStranded(this.deps.db, now);
    for (const runId of runIds)
      await this.afterRunQueue.send({ run_id: runId }, { singletonKey: runId, singletonSeconds: 120 });
    return runIds.length;
  }

  /**
   * Publishes a run's facts once: the job first claims the run's outbox row (a lease as long as the
   * job may run), so a second job for the same run finds it taken and does nothing. A failure gives
   * the claim back for the retry; a job that died keeps it until the lease lapses.
   */
  async afterRun(runId: string): Promise<void> {
    const now = this.deps.clock.now();
    const row = await repo.claim(this.deps.db, runId, now, AFTER_RUN_EXPIRE_SECONDS);
    if (!row) return;
    try {
      await this.publishFor(row);
    } catch (error) {
      await repo.releaseClaim(this.deps.db, runId);
      throw error;
    }
  }

  private async publishFor(row: repo.OutboxRow): Promise<void> {
    const { clock, facts, dq, flows, projects } = this.deps;
    const runId = row.run_id;
    const run = await flows.getRun(runId);
    if (run?.status === 'running' || run?.status === 'queued')
      throw new Error(`run ${runId} committed its models but is not marked finished yet; retrying`);
    const ds = await flows.datastreamRow(row.datastream_id);
    const project = await projects.findRow(row.project_id);
    if (!ds || !project) {
      await this.settle(runId);
      return;
    }
    const now = clock.now();
    const window = { from: row.date_from, to: row.date_to };
    await facts.publish(
      'datastream.ingested',
      row.project_id,
      {
        run_id: runId,
        datastream_id: ds.id,
        datastream: ds.name,
        window,
        rows_read: run?.rows_read ?? null,
        rows_written: run?.rows_written ?? null,
      },
      now,
    );
    const checks = await dq.runMonitors(
      {
        projectId: row.project_id,
        datastreamId: ds.id,
        runId,
        from: row.date_from,
        to: row.date_to,
        cadence: ds.cadence,
        today: todayIn(clock, ds.timezone),
        reportingCurrency: project.reporting_currency.trim(),
      },
      clock,
    );
    for (const c of checks.filter((c) => c.status === 'fail' || c.status === 'error')) {
      await facts.publish('dq.check_failed', row.project_id, { ...c }, now);
    }
    if (row.anomalies_fired > 0) {
      const fired = await this.deps.anomalies.firedFor(row.project_id, {
        since: row.date_from,
        until: row.date_to,
        limit: 20,
      });
      await facts.publish(
        'anomaly.detected',
        row.project_id,
        {
          run_id: runId,
          window,
          // Anomalies (runs of fired days, stable ids) with a fired day in the run's window: what
          // alerts read through anomalyItemsOf. fired_days counts the days the run's window fired.
          count: await this.deps.anomalies.countFor(row.project_id, row.date_from, row.date_to),
          fired_days: row.anomalies_fired,
          anomalies: await Promise.all(
            fired.map(async (a) => ({
              id: a.id,
              metric: a.metric,
              channel: a.channel,
              kind: a.kind,
              direction: a.direction,
              first_date: a.first_date,
              last_date: a.last_date,
              peak_date: a.peak_date,
              value: a.value,
              baseline: a.baseline_mean,
              z: a.z,
              score: a.score,
              severity: a.severity,
              opened_in_this_run: a.first_date >= row.date_from,
              // What the default rule reports as explained by this anomaly (a total, a ratio): the
              // message names them instead of alerting on each.
              moved_with_it: await this.deps.anomalies.movedWithIt(row.project_id, a),
            })),
          ),
        },
        now,
      );
      await this.deps.feed.resourceUpdated(anomaliesResourceUri(row.project_id));
    }
    await facts.publish(
      'dataset.transformed',
      row.project_id,
      {
        run_id: runId,
        datastream_id: ds.id,
        datasets: ['ad_performance_daily', 'kpis_daily', 'anomalies_daily'],
        window,
      },
      now,
    );
    await this.settle(runId);
  }

  private async settle(runId: string): Promise<void> {
    await repo.settle(this.deps.db, runId, this.deps.clock.now());
  }

  /** The composer's reaction to a fact: recompose the window's project-days whose inputs changed. */
  async composeFor(fact: Fact): Promise<void> {
    const window = fact.payload.window as { from: string; to: string } | undefined;
    if (!window) return;
    await this.composeDays(fact.project_id, window.from, window.to);
  }

  async composeDays(projectId: string, from: string, to: string): Promise<number> {
    const project = await this.deps.projects.findRow(projectId);
    if (!project) return 0;
    const floor = addDays(todayIn(this.deps.clock, project.timezone), -RECOMPOSE_DAYS);
    const changed = await this.deps.insights.composeRange(
      projectId,
      from < floor ? floor : from,
      to,
      this.deps.clock.now(),
    );
    for (const row of changed) {
      await this.deps.facts.publish(
        'insight.composed',
        projectId,
        {
          date: row.date,
          version: row.version,
          inputs_hash: row.inputs_hash,
          anomalies: (row.record.anomalies as unknown[]).length,
        },
        this.deps.clock.now(),
      );
    }
    if (changed.length) await this.deps.feed.resourceUpdated(insightResourceUri(projectId));
    return changed.length;
  }
}
