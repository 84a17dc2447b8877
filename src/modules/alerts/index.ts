export { alertRoutes } from './alerts.routes.js';
export { AlertDelivery } from './alerts.delivery.js';
export { AlertDestinations } from './alerts.destinations.js';
export { AlertLog } from './alerts.log.js';
export { AlertRouter } from './alerts.routing.js';
export { AlertRules } from './alerts.rules.js';
export { alertSweep, type AlertSweepResult } from './alerts.sweep.js';
export type { Alerts } from './alerts.services.js';
