import { z } from 'zod';
import { AnomalyId } from '../explain/explain.schemas.js';
import { TriageStatus } from '../anomalies.schemas.js';

/**
 * What a triage changes (PATCH /api/anomalies/{id}, triage_anomaly, the widget's buttons): any
 * subset of the four fields, at least one; null clears the note, the assignee or the linked event.
 */
const TriageFields = {
  status: TriageStatus.optional().describe(
    'open → acknowledged → resolved, or expected / false_positive; a closed status goes back to open only.',
  ),
  note: z.string().max(2000).nullable().optional(),
  assignee: z.string().min(1).max(200).nullable().optional().describe('An organization member (their subject).'),
  context_event_id: z
    .string()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe("A context event of the anomaly's project."),
};

const atLeastOne = (v: Record<string, unknown>) =>
  ['status', 'note', 'assignee', 'context_event_id'].some((k) => v[k] !== undefined);
const nothingToChange = { message: 'give at least one of status, note, assignee, context_event_id' };

export const TriageInput = z.object(TriageFields).strict().refine(atLeastOne, nothingToChange);
export type TriageInput = z.infer<typeof TriageInput>;

export const TriageParams = z.object({ id: AnomalyId });

export const TriageAnomalyToolInput = z
  .object({ anomaly_id: AnomalyId, ...TriageFields })
  .strict()
  .refine(atLeastOne, nothingToChange);
export type TriageAnomalyToolInput = z.infer<typeof TriageAnomalyToolInput>;

export const TriageOutput = z.object({
  anomaly_id: z.string(),
  project_id: z.string(),
  status: TriageStatus,
  previous_status: TriageStatus,
  note: z.string().nullable(),
  assignee: z.string().nullable(),
  context_event_id: z.string().nullable(),
  updated_at: z.string().nullable().describe('Null when nobody triaged it yet.'),
  updated_by: z.string().nullable(),
  allowed_next: z.array(TriageStatus).describe('The statuses it may move to from here.'),
  pagerduty_resolves: z.number().describe('PagerDuty resolve messages this change queued (incidents it closes).'),
});
export type TriageOutput = z.infer<typeof TriageOutput>;
