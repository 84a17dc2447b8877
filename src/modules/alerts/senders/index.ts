import type { DestinationKind } from '../alerts.schemas.js';
import { emailSender } from './email.sender.js';
import { pagerDutySender } from './pagerduty.sender.js';
import type { Sender } from './sender.js';
import { slackSender } from './slack.sender.js';
import { teamsSender } from './teams.sender.js';
import { webhookSender } from './webhook.sender.js';

/** The contact points: one sender per destination kind. */
export const SENDERS: Record<DestinationKind, Sender> = {
  webhook: webhookSender,
  slack: slackSender,
  teams: teamsSender,
  email: emailSender,
  pagerduty: pagerDutySender,
};

export type { Outgoing, Sender, SendResult } from './sender.js';
export { newSigningSecret } from './webhook.sender.js';
