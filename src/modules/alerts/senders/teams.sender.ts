import { describeItem, type MessagePayload, moreLine } from '../alerts.content.js';
import { postJson, type Outgoing, type Sender } from './sender.js';

type CardElement = Record<string, unknown>;

/**
 * The same content as the Slack message, as an Adaptive Card (schema 1.4, which Teams renders)
 * in the envelope a Teams Workflows "post to a channel when a webhook request is received" flow
 * expects: `{type: "message", attachments: [{contentType: "application/vnd.microsoft.card.adaptive",
 * content: card}]}`. Text is plain (TextBlock markdown is a small subset; nothing is interpreted).
 */
export function teamsMessage(payload: MessagePayload): Record<string, unknown> {
  const body: CardElement[] = [{ type: 'TextBlock', text: payload.title, size: 'Large', weight: 'Bolder', wrap: true }];
  for (const item of payload.items) {
    const text = describeItem(item);
    const container: CardElement[] = [{ type: 'TextBlock', text: text.heading, weight: 'Bolder', wrap: true }];
    if (text.facts.length)
      container.push({ type: 'FactSet', facts: text.facts.map(([title, value]) => ({ title, value })) });
    if (text.note) container.push({ type: 'TextBlock', text: text.note, wrap: true, isSubtle: true });
    if (item.url)
      container.push({ type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open', url: item.url }] });
    body.push({ type: 'Container', separator: true, spacing: 'Medium', items: container });
  }
  const more = moreLine(payload);
  if (more) body.push({ type: 'TextBlock', text: more, wrap: true, isSubtle: true });
  if (payload.rule)
    body.push({ type: 'TextBlock', text: `Rule: ${payload.rule.name}`, wrap: true, isSubtle: true, size: 'Small' });
  const card: Record<string, unknown> = {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.4',
    body,
  };
  if (payload.console_url)
    card.actions = [{ type: 'Action.OpenUrl', title: 'Open in Context Hub', url: payload.console_url }];
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}

export const teamsSender: Sender = {
  kind: 'teams',
  send: (out: Outgoing) => postJson(String(out.secrets.url), teamsMessage(out.payload), {}, out),
};
