import { CronExpressionParser } from 'cron-parser';

export const NAMED_CADENCES = ['hourly', 'daily', 'weekly', 'manual'] as const;

/** Why a cadence is not acceptable, or undefined when it is. Cron: exactly 5 fields. */
export function cadenceProblem(cadence: string): string | undefined {
  if ((NAMED_CADENCES as readonly string[]).includes(cadence)) return undefined;
  const fields = cadence.trim().split(/\s+/);
  if (fields.length !== 5)
    return `must be hourly, daily, weekly, manual or a 5-field cron expression (got ${fields.length} field${fields.length === 1 ? '' : 's'})`;
  try {
    CronExpressionParser.parse(cadence, { strict: false });
    return undefined;
  } catch (error) {
    return `invalid cron expression: ${(error as Error).message.slice(0, 120)}`;
  }
}

/** The cron a cadence means; named cadences run at the nightly hour (hourly: on the hour). */
export function cronFor(cadence: string, nightlyHour: number): string | null {
  switch (cadence) {
    case 'manual':
      return null;
    case 'hourly':
      return '0 * * * *';
    case 'daily':
      return `0 ${nightlyHour} * * *`;
    case 'weekly':
      return `0 ${nightlyHour} * * 1`;
    default:
      return cadence;
  }
}

export interface Schedule {
  cron: string | null;
  timezone: string;
  source: 'datastream' | 'default';
  next_run_at: Date | null;
}

/**
 * A datastream's effective schedule. Without a cadence it falls back to SCHEDULER_NIGHTLY_HOUR in
 * SCHEDULER_TIMEZONE and says so.
 */
export function scheduleOf(
  cadence: string | null,
  timezone: string,
  defaults: { nightlyHour: number; timezone: string },
  now: Date,
): Schedule {
  const source = cadence ? 'datastream' : 'default';
  const zone = cadence ? timezone : defaults.timezone;
  const cron = cadence ? cronFor(cadence, defaults.nightlyHour) : `0 ${defaults.nightlyHour} * * *`;
  if (!cron) return { cron: null, timezone: zone, source, next_run_at: null };
  const next = CronExpressionParser.parse(cron, { currentDate: now, tz: zone }).next().toDate();
  return { cron, timezone: zone, source, next_run_at: next };
}
