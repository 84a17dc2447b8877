import { DEFAULT_PAGERDUTY_EVENTS_URL } from '../alerts.schemas.js';
import { describeItem, type MessagePayload, moreLine } from '../alerts.content.js';
import { postJson, type Outgoing, type Sender } from './sender.js';

/**
 * PagerDuty Events API v2. A message opens one incident (`trigger`) whose `dedup_key` is the id
 * of its most severe anomaly (or its run / check), so a night of anomalies is one page; `resolve`
 * with the same key closes it (sent when triage resolves that anomaly). PagerDuty answers 202.
 */
export function pagerDutyEvent(payload: MessagePayload, routingKey: string): Record<string, unknown> {
  const pd = payload.pagerduty;
  if (!pd) throw new Error('a PagerDuty message carries its dedup key');
  if (pd.action === 'resolve') return { routing_key: routingKey, event_action: 'resolve', dedup_key: pd.dedup_key };
  const first = payload.items[0];
  const details: Record<string, unknown> = {
    rule: payload.rule?.name ?? null,
    run_id: payload.run_id,
    items: payload.items.map((item) => {
      const text = describeItem(item);
      return { heading: text.heading, ...Object.fromEntries(text.facts), note: text.note };
    }),
  };
  const more = moreLine(payload);
  if (more) details.more = more;
  const links = [
    ...(first?.url ? [{ href: first.url, text: 'Most severe item in Context Hub' }] : []),
    ...(payload.console_url ? [{ href: payload.console_url, text: 'Project in Context Hub' }] : []),
  ];
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: pd.dedup_key,
    payload: {
      summary: payload.title.slice(0, 1024),
      source: `context-hub/${payload.project.id}`,
      severity: pd.severity,
      timestamp: payload.created_at,
      component: first?.type === 'anomaly' ? first.metric : (first?.type ?? 'alert'),
      group: payload.project.id,
      class: payload.sources.join(','),
      custom_details: details,
    },
    links,
    client: 'Context Hub',
    ...(payload.console_url ? { client_url: payload.console_url } : {}),
  };
}

export const pagerDutySender: Sender = {
  kind: 'pagerduty',
  send: (out: Outgoing) =>
    postJson(
      String(out.config.events_url ?? DEFAULT_PAGERDUTY_EVENTS_URL),
      pagerDutyEvent(out.payload, String(out.secrets.routing_key)),
      {},
      out,
    ),
};
