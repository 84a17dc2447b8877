import type { ServiceDeps } from '../services.js';
import type { ContextEventsService } from '../context-events/context-events.service.js';
import type { CredentialsService } from '../credentials/credentials.service.js';
import type { Evaluators } from '../evaluators/index.js';
import type { AuditRecorder } from '../org/audit.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { AlertDelivery } from './alerts.delivery.js';
import { AlertDestinations } from './alerts.destinations.js';
import { AlertLog } from './alerts.log.js';
import { AlertRouter } from './alerts.routing.js';
import { AlertRules } from './alerts.rules.js';

export { alertRoutes } from './alerts.routes.js';

/** Alerts (issue 30): destinations, rules and mutes, the router, delivery and its log. */
export interface Alerts {
  destinations: AlertDestinations;
  rules: AlertRules;
  router: AlertRouter;
  delivery: AlertDelivery;
  log: AlertLog;
  /** The scheduler tick's part: facts nobody evaluated, held messages whose quiet hours ended, stranded ones. */
  sweep(now: Date): Promise<{ evaluations: number; released: number; requeued: number }>;
}

export function createAlerts(
  deps: ServiceDeps,
  m: {
    projects: ProjectsService;
    credentials: CredentialsService;
    contextEvents: ContextEventsService;
    evaluators: Evaluators;
    audit: AuditRecorder;
  },
): Alerts {
  const delivery = new AlertDelivery({
    db: deps.db,
    jobs: deps.jobs,
    clock: deps.clock,
    log: deps.log,
    config: deps.config,
    box: m.credentials.box,
  });
  const router = new AlertRouter({
    db: deps.db,
    jobs: deps.jobs,
    clock: deps.clock,
    log: deps.log,
    config: deps.config,
    projects: m.projects,
    contextEvents: m.contextEvents,
    insights: m.evaluators.insights,
    facts: m.evaluators.facts,
    delivery,
  });
  const destinations = new AlertDestinations({
    db: deps.db,
    projects: m.projects,
    box: m.credentials.box,
    audit: m.audit,
    delivery,
    allowPrivate: () => deps.config.alertsAllowPrivateNetworks,
  });
  const rules = new AlertRules({ db: deps.db, projects: m.projects, audit: m.audit });
  const log = new AlertLog({ db: deps.db, projects: m.projects, audit: m.audit, delivery });
  const alerts: Alerts = {
    destinations,
    rules,
    router,
    delivery,
    log,
    sweep: async (now) => {
      const evaluations = await router.sweep(now);
      return { evaluations, ...(await delivery.sweep(now)) };
    },
  };
  m.evaluators.plan.addSweep('alerts', (now) => alerts.sweep(now));
  return alerts;
}
