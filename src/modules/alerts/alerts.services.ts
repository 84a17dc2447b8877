import type { AlertDelivery } from './alerts.delivery.js';
import type { AlertDestinations } from './alerts.destinations.js';
import type { AlertLog } from './alerts.log.js';
import type { AlertRouter } from './alerts.routing.js';
import type { AlertRules } from './alerts.rules.js';
import type { AlertSweepResult } from './alerts.sweep.js';

/** Alerts: destinations, rules and mutes, the router, delivery and its log. */
export interface Alerts {
  destinations: AlertDestinations;
  rules: AlertRules;
  router: AlertRouter;
  delivery: AlertDelivery;
  log: AlertLog;
  /** The scheduler tick's part: facts nobody evaluated, held messages whose quiet hours ended, stranded ones. */
  sweep(now: Date): Promise<AlertSweepResult>;
}
