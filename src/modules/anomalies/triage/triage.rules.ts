import type { TriageStatus } from '../anomalies.schemas.js';

/**
 * The valid transitions. open → acknowledged → resolved is the working path; expected and
 * false_positive close an anomaly from open or acknowledged as well. Closed statuses (resolved,
 * expected, false_positive) only reopen: going from one verdict to another goes through open, so
 * the audit log shows the verdict was withdrawn before another was given.
 */
export const TRANSITIONS: Record<TriageStatus, readonly TriageStatus[]> = {
  open: ['acknowledged', 'resolved', 'expected', 'false_positive'],
  acknowledged: ['open', 'resolved', 'expected', 'false_positive'],
  resolved: ['open'],
  expected: ['open'],
  false_positive: ['open'],
};

/** Statuses that close an anomaly: reaching one resolves its PagerDuty incident, if it paged. */
export const CLOSED: ReadonlySet<TriageStatus> = new Set(['resolved', 'expected', 'false_positive']);
