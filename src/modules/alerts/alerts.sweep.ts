import type { AlertDelivery } from './alerts.delivery.js';
import type { AlertRouter } from './alerts.routing.js';

export interface AlertSweepResult {
  evaluations: number;
  released: number;
  requeued: number;
}

/** The scheduler tick's part: facts nobody evaluated, held messages whose quiet hours ended, stranded ones. */
export function alertSweep(router: AlertRouter, delivery: AlertDelivery): (now: Date) => Promise<AlertSweepResult> {
  return async (now) => {
    const evaluations = await router.sweep(now);
    return { evaluations, ...(await delivery.sweep(now)) };
  };
}
