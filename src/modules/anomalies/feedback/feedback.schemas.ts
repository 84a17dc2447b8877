import { z } from 'zod';
import { ProjectId } from '../../projects/index.js';
import { AnomalySettingsInput } from '../detection/detection.schemas.js';

export const FEEDBACK_DAYS = 90;

export const FeedbackQuery = z.object({ project_id: ProjectId });

export const PrecisionRow = z.object({
  metric: z.string(),
  channel: z.string(),
  fired: z.number().describe('Anomalies with a fired day in the period.'),
  triaged: z.number().describe('Of those, triaged (any status but open).'),
  false_positives: z.number(),
  confirmed: z.number().describe('Triaged acknowledged, resolved or expected.'),
  precision: z.number().nullable().describe('confirmed / (confirmed + false_positives); null before any verdict.'),
});

export const FeedbackOutput = z.object({
  project_id: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z.array(PrecisionRow),
});

export const Suggestion = z.object({
  label: z.string().describe('What the candidate changes.'),
  settings: AnomalySettingsInput.describe('The whole settings to PUT /api/anomalies/settings to apply it.'),
  fired: z.number().describe('Anomalies the replay fires (series-days runs).'),
  false_positives_silenced: z.number().describe('Triaged false positives that would not have fired.'),
  false_positives_still_fired: z.number(),
  confirmed_still_fired: z.number().describe('Confirmed anomalies that would still fire.'),
  confirmed_missed: z.number(),
});

export const SuggestOutput = z.object({
  project_id: z.string(),
  from: z.string(),
  to: z.string(),
  false_positives: z.number(),
  confirmed: z.number(),
  current: Suggestion.describe('The stored settings replayed (the reference).'),
  candidates: z.array(Suggestion),
});
