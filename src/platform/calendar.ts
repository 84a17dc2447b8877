import { z } from 'zod';
import type { Clock } from './clock.js';

/**
 * Calendar dates as 'YYYY-MM-DD' strings, the form both stores return for `date` columns. Day
 * arithmetic runs in UTC on purpose: a calendar date has no time zone, so no DST shift can move it.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A real calendar date: 2026-02-30 fails with a message that says why. */
export const CalendarDate = z
  .string()
  .superRefine((value, ctx) => {
    // One violation per field: a malformed date is not also reported as an impossible one.
    if (!ISO_DATE.test(value)) ctx.addIssue({ code: 'custom', message: 'must be a date in the form YYYY-MM-DD' });
    else if (!isCalendarDate(value)) ctx.addIssue({ code: 'custom', message: 'is not a real calendar date' });
  })
  // JSON Schema's own word for YYYY-MM-DD: fields need not spell the format out in their descriptions.
  .meta({ format: 'date' });

export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Today's date in an IANA time zone, from the injected clock. */
export function todayIn(clock: Clock, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    clock.now(),
  );
}
