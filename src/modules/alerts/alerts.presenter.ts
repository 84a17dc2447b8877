import type { DestinationRow, MuteDbRow, RuleRef, RuleRow } from './alerts.config.repo.js';
import type { AttemptRow, MessageRow } from './alerts.delivery.repo.js';
import {
  type AlertSource,
  type DeliveryOutput,
  type DestinationOutput,
  type MuteOutput,
  RuleFilters,
  type RuleOutput,
} from './alerts.schemas.js';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The host a URL secret points to: what a person needs to recognise it, without the credential in it. */
function targetOf(row: DestinationRow, secrets: Record<string, unknown>): string | null {
  const raw =
    row.kind === 'email'
      ? `smtp://${String(row.config.host)}:${String(row.config.port)}`
      : row.kind === 'pagerduty'
        ? String(row.config.events_url ?? '')
        : String(secrets.url ?? '');
  try {
    return new URL(raw).host || null;
  } catch {
    return null;
  }
}

export function presentDestination(
  row: DestinationRow,
  secrets: Record<string, unknown>,
  rules: RuleRef[],
  signingSecret?: string,
): DestinationOutput {
  const last = row.last_test as DestinationOutput['last_test'];
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    kind: row.kind,
    config: row.config,
    secret_fields: Object.keys(secrets).sort(),
    target: targetOf(row, secrets),
    enabled: row.enabled,
    rules,
    last_test: last ?? null,
    created_at: iso(row.created_at)!,
    created_by: row.created_by,
    updated_at: iso(row.updated_at)!,
    updated_by: row.updated_by,
    ...(signingSecret ? { signing_secret: signingSecret } : {}),
  };
}

export function presentRule(row: RuleRow): RuleOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    on: row.sources as AlertSource[],
    filters: RuleFilters.parse(row.filters),
    destinations: row.destinations.map((d) => ({ id: d.id, name: d.name, kind: d.kind })),
    quiet_hours: row.quiet_hours,
    enabled: row.enabled,
    created_at: iso(row.created_at)!,
    created_by: row.created_by,
    updated_at: iso(row.updated_at)!,
    updated_by: row.updated_by,
  };
}

export function presentMute(row: MuteDbRow, today: string): MuteOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    rule_id: row.rule_id,
    metric: row.metric,
    channel: row.channel,
    until: row.until,
    active: row.until >= today,
    reason: row.reason,
    created_at: iso(row.created_at)!,
    created_by: row.created_by,
  };
}

export function presentDelivery(row: MessageRow, attempts: AttemptRow[]): DeliveryOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    rule: { id: row.rule_id, name: row.rule_name },
    destination: { id: row.destination_id, name: row.destination_name, kind: row.kind },
    source: row.source,
    event_type: row.event_type,
    run_id: row.run_id,
    title: String(row.payload.title ?? ''),
    item_count: Number(row.item_count),
    status: row.status,
    attempt_count: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
    deliver_after: iso(row.deliver_after)!,
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
    last_error: row.last_error,
    attempts: attempts.map((a) => ({
      attempt: Number(a.attempt),
      started_at: iso(a.started_at)!,
      finished_at: iso(a.finished_at),
      outcome: a.outcome,
      http_status: a.http_status === null ? null : Number(a.http_status),
      latency_ms: a.latency_ms === null ? null : Number(a.latency_ms),
      error: a.error,
      response_excerpt: a.response_excerpt,
      retry_at: iso(a.retry_at),
    })),
  };
}
