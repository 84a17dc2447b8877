import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { JobQueues } from './queues.js';

export const TICK_QUEUE = 'scheduler.tick';
const TICK_CRON = '* * * * *';

/**
 * The clock of the schedules: a pg-boss cron enqueues `scheduler.tick` once a minute (pg-boss
 * lets one process win each cron slot, however many run it), and whichever worker takes the job
 * calls `tick(now)` with the injected clock. Everything that is due is decided inside `tick`,
 * against the database, so tests call `tick` directly with a ManualClock and run a month of
 * schedules in seconds; production only adds the minute cron.
 */
export class Scheduler {
  constructor(
    private readonly deps: {
      jobs: JobQueues;
      clock: Clock;
      log: Logger;
      tick(now: Date): Promise<unknown>;
    },
  ) {
    deps.jobs.define<Record<string, never>>({
      name: TICK_QUEUE,
      // One tick at a time across every process; a late tick is simply the next one.
      policy: 'singleton',
      retryLimit: 0,
      expireInSeconds: 300,
      handler: async () => {
        await this.deps.tick(this.deps.clock.now());
      },
    });
  }

  /** SCHEDULER_ENABLED: register the minute cron (idempotent: pg-boss keeps one per name). */
  async start(): Promise<void> {
    await this.deps.jobs.engine.schedule(TICK_QUEUE, TICK_CRON, {}, { tz: 'UTC' });
    this.deps.log.info({ cron: TICK_CRON }, 'scheduler driving the schedules');
  }
}
