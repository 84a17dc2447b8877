import type { EpisodeWithPeak } from './anomalies.repo.js';
import type { AnomalyOutput, AnomalyTriage } from './anomalies.schemas.js';
import type { TriageRow } from './triage/triage.repo.js';
import { TRANSITIONS } from './triage/triage.rules.js';

/** An anomaly (its peak day's figures) with the context events active on that day. */
export function presentAnomaly(
  row: EpisodeWithPeak,
  events: { id: string; event_type: string; title: string; event_date: string; active_until: string }[],
): AnomalyOutput {
  return {
    id: row.id,
    kind: row.kind as AnomalyOutput['kind'],
    first_date: row.first_date,
    last_date: row.last_date,
    peak_date: row.peak_date,
    fired_days: row.days,
    score: row.peak_score,
    severity: row.severity,
    date: row.peak_date,
    metric: row.metric,
    channel: row.channel,
    value: row.value,
    baseline_mean: row.baseline_mean,
    baseline_stddev: row.baseline_stddev,
    training_size: row.training_size,
    window: { from: row.window_from, to: row.window_to, seasonality: row.seasonality, model: row.model },
    z: row.z,
    relative_change: row.relative_change,
    threshold: row.threshold,
    min_relative_change: row.min_relative_change,
    min_abs_change: row.min_abs_change,
    watch: row.watch,
    direction: row.direction,
    fired: row.fired,
    status: row.status as AnomalyOutput['status'],
    assignee: row.assignee ?? null,
    context_events: events.map((e) => ({
      id: e.id,
      event_type: e.event_type,
      title: e.title,
      event_date: e.event_date,
      active_until: e.active_until,
    })),
  };
}

/** An anomaly's whole triage; `row` undefined when nobody triaged it yet (open, empty). */
export function presentTriage(
  row: TriageRow | undefined,
  event: { id: string; title: string; event_type: string; event_date: string } | null,
): AnomalyTriage {
  const status = row?.status ?? 'open';
  return {
    status,
    note: row?.note ?? null,
    assignee: row?.assignee ?? null,
    context_event_id: row?.context_event_id ?? null,
    context_event: event,
    updated_at: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
    updated_by: row?.updated_by ?? null,
    allowed_next: [...TRANSITIONS[status]],
  };
}
