import type { KnownBlock, SectionBlock } from '@slack/types';
import { describeItem, type MessagePayload, moreLine } from '../alerts.content.js';
import { postJson, type Outgoing, type Sender } from './sender.js';

/** Slack's mrkdwn treats &, < and > as markup: escaped, names and notes show as typed. */
function esc(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A Block Kit message for an incoming webhook: a header (what fired), one section per listed item
 * (value vs baseline, change, z as fields; active context events under it; a button to its console
 * page), then "and N more" and a button to the project. Limits from Slack's reference: header
 * text 150 characters, section text 3000, at most 10 fields of 2000, at most 50 blocks.
 */
export function slackMessage(payload: MessagePayload): { text: string; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: cut(payload.title, 150) } }];
  for (const item of payload.items) {
    const text = describeItem(item);
    const section: SectionBlock = {
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${esc(text.heading)}*${text.note ? `\n${esc(text.note)}` : ''}`, 3000) },
      fields: text.facts.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: cut(`*${esc(k)}*\n${esc(v)}`, 2000) })),
    };
    if (section.fields?.length === 0) delete section.fields;
    if (item.url)
      section.accessory = {
        type: 'button',
        text: { type: 'plain_text', text: 'Open' },
        url: item.url,
        action_id: item.id,
      };
    blocks.push(section);
  }
  const context = [moreLine(payload), payload.rule ? `Rule: ${payload.rule.name}` : null].filter(
    (t): t is string => t !== null,
  );
  if (context.length)
    blocks.push({ type: 'context', elements: context.map((t) => ({ type: 'mrkdwn', text: cut(esc(t), 3000) })) });
  if (payload.console_url)
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Open in Context Hub' },
          url: payload.console_url,
          action_id: 'open_console',
        },
      ],
    });
  // Notifications and clients without blocks show `text`.
  return { text: payload.title, blocks: blocks.slice(0, 50) };
}

export const slackSender: Sender = {
  kind: 'slack',
  send: (out: Outgoing) => postJson(String(out.secrets.url), slackMessage(out.payload), {}, out),
};
