import { CronExpressionParser } from 'cron-parser';
import type { RequestContext } from '../../platform/context/request-context.js';
import { OPERATOR } from '../../platform/auth/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import type { JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import { addDays } from '../../platform/calendar.js';
import type { MoneyService } from '../money/index.js';
import type { DatastreamRow, FlowsService } from '../flows/index.js';
import type { IngestionService } from '../ingestion/index.js';
import type { ProjectsService } from '../projects/index.js';
import { dayInZone } from '../providers/index.js';
import * as repo from './scheduling.repo.js';

export const FX_REFRESH_QUEUE = 'money.fx_refresh';

export interface TickResult {
  runs: { datastream_id: string; due_at: string; run_id: string }[];
  insights: { project_id: string; date: string }[];
  fx_refresh: boolean;
  swept: number;
  /** What each module's sweep did this tick (alerts: evaluations queued, messages released and re-queued). */
  sweeps: Record<string, unknown>;
}

/**
 * What a tick asks of the evaluators: the day's insight for a range of days, and a sweep of runs
 * whose after-run work was stranded. The evaluators module implements it; declaring it here keeps
 * the schedule below the evaluators it drives.
 */
export interface DailyEvaluations {
  composeDays(projectId: string, from: string, to: string): Promise<number>;
  sweep(now: Date): Promise<number>;
}

/**
 * What is due at `now`, decided against the database so any number of processes can tick at
 * once: a due slot is claimed by inserting (target, due_at) into schedule_firings, whose primary
 * key lets exactly one process win it. Datastreams: each one's stored next_run_at (its own cadence
 * and timezone, or SCHEDULER_NIGHTLY_HOUR in SCHEDULER_TIMEZONE), advanced to the next occurrence
 * after `now` when claimed. Missed slots (every process down) coalesce into one run: the run's
 * lookback window covers the gap. Daily jobs (insight composition per project, the FX refresh)
 * claim their latest occurrence at or before `now`. cron-parser computes occurrences in the zone,
 * so DST transitions neither skip nor double a daily slot.
 */
export class SchedulePlan {
  private readonly fxQueue: QueueHandle<Record<string, never>>;

  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      clock: Clock;
      log: Logger;
      jobs: JobQueues;
      flows: FlowsService;
      projects: ProjectsService;
      ingestion: IngestionService;
      money: MoneyService;
      pipeline: DailyEvaluations;
      /**
       * Work another module re-checks at every tick against the database (so it is safe on every
       * process at once), e.g. alerts whose quiet hours ended; keyed by the name the tick reports.
       */
      sweeps?: Record<string, (now: Date) => Promise<unknown>>;
    },
  ) {
    this.fxQueue = deps.jobs.define<Record<string, never>>({
      name: FX_REFRESH_QUEUE,
      retryLimit: 3,
      retryDelay: 300,
      retryBackoff: true,
      handler: async () => {
        await this.deps.money.refreshRates(this.context());
      },
    });
  }

  private context(): RequestContext {
    return { actor: OPERATOR, requestId: 'scheduler', clock: this.deps.clock, log: this.deps.log };
  }

  async tick(now: Date): Promise<TickResult> {
    const result: TickResult = { runs: [], insights: [], fx_refresh: false, swept: 0, sweeps: {} };
    const { db, config, flows } = this.deps;
    for (const id of await flows.dueDatastreamIds(now)) {
      const ds = await flows.datastreamRow(id);
      if (!ds?.next_run_at) continue;
      const dueAt = new Date(ds.next_run_at);
      // A process ticking at the same moment may have claimed it and moved it on since the list was
      // read: its next slot is not due yet, and claiming it now would fire it early.
      if (dueAt.getTime() > now.getTime()) continue;
      const next = nextSlot(this.deps.flows.schedule(ds, now), dueAt, now);
      const claimed = await db.transaction(async (tx) => {
        const won = await repo.claimFiring(tx, { target: `datastream:${ds.id}`, dueAt, now });
        await flows.advanceNextRun(tx, ds.id, next, dueAt);
        return won;
      });
      if (claimed) result.runs.push(await this.startRun(ds, dueAt, now));
    }
    result.runs.push(...(await this.retryUnstarted(now)));

    const daily = `0 ${config.schedulerNightlyHour} * * *`;
    const projects = await this.deps.projects.zones();
    for (const p of projects) {
      const slot = latestOccurrence(daily, p.timezone, now);
      if (!(await this.claim(`insight:${p.id}`, slot, now))) continue;
      const yesterday = addDays(dayInZone(now, p.timezone), -1);
      await this.deps.pipeline.composeDays(p.id, yesterday, yesterday);
      result.insights.push({ project_id: p.id, date: yesterday });
    }
    if (await this.claim('fx:refresh', latestOccurrence(daily, config.schedulerTimezone, now), now)) {
      await this.fxQueue.send({}, { singletonKey: 'fx', singletonSeconds: 600 });
      result.fx_refresh = true;
    }
    result.swept = await this.deps.pipeline.sweep(now);
    for (const [name, sweep] of Object.entries(this.deps.sweeps ?? {})) result.sweeps[name] = await sweep(now);
    return result;
  }

  private async claim(target: string, dueAt: Date, now: Date): Promise<boolean> {
    return repo.claimFiring(this.deps.db, { target, dueAt, now, runId: 'done' });
  }

  private async startRun(ds: DatastreamRow, dueAt: Date, now: Date) {
    const window = await this.deps.flows.windowFor(ds, now);
    const run = await this.deps.ingestion.enqueue(this.context(), ds, window, 'schedule');
    await repo.recordFiringRun(this.deps.db, `datastream:${ds.id}`, dueAt, run.id);
    return { datastream_id: ds.id, due_at: dueAt.toISOString(), run_id: run.id };
  }

  /** A slot claimed by a process that died before queueing its run: claim it again and start it. */
  private async retryUnstarted(now: Date) {
    const rows = await repo.reclaimUnstarted(this.deps.db, now);
    const out = [];
    for (const r of rows) {
      const ds = await this.deps.flows.datastreamRow(r.target.slice('datastream:'.length));
      if (ds) out.push(await this.startRun(ds, new Date(r.due_at), now));
    }
    return out;
  }
}

/**
 * The occurrence after both `now` and the slot just claimed whose local wall-clock time differs
 * from that slot's: when clocks fall back, cron-parser answers the repeated hour's second instant
 * too, and a daily 02:30 must not run twice on that day.
 */
export function nextSlot(schedule: { cron: string | null; timezone: string }, claimed: Date, now: Date): Date | null {
  if (!schedule.cron) return null;
  const wall = (d: Date) =>
    `${dayInZone(d, schedule.timezone)} ${new Intl.DateTimeFormat('en-GB', { timeZone: schedule.timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d)}`;
  const it = CronExpressionParser.parse(schedule.cron, {
    currentDate: now > claimed ? now : claimed,
    tz: schedule.timezone,
  });
  for (;;) {
    const next = it.next().toDate();
    if (wall(next) !== wall(claimed)) return next;
  }
}

/**
 * The latest occurrence of a daily `cron` in `timeZone` at or before `now`, as the first one of its
 * local day: when clocks fall back an hour repeats, and walking backwards cron-parser answers both
 * instants; taking the day's first keeps one slot per local day (the claim's key).
 */
export function latestOccurrence(cron: string, timeZone: string, now: Date): Date {
  const it = CronExpressionParser.parse(cron, { currentDate: new Date(now.getTime() + 1000), tz: timeZone });
  let slot = it.prev().toDate();
  const day = dayInZone(slot, timeZone);
  for (;;) {
    const earlier = it.prev().toDate();
    if (dayInZone(earlier, timeZone) !== day) return slot;
    slot = earlier;
  }
}
