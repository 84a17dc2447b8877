import type { ServiceDeps, Services } from '../modules/services.js';
import { contextHubDemoSeeder, datastreamsDemoSeeder, DemoSeed } from '../modules/demo/index.js';
import { ProjectDirectory, ProjectsService } from '../modules/projects/index.js';
import { CredentialsService } from '../modules/credentials/index.js';
import { FlowRunLedger, FlowsService } from '../modules/flows/index.js';
import { IngestionService } from '../modules/ingestion/index.js';
import { SkillPromptsService, SkillsService } from '../modules/skills/index.js';
import { CompletionService } from '../modules/completion/index.js';
import { KnowledgeService } from '../modules/knowledge/index.js';
import { ProposalGate, ProposalsService } from '../modules/proposals/index.js';
import { TaxonomyService } from '../modules/taxonomy/index.js';
import { SkillBundlesService } from '../modules/skill-bundles/index.js';
import { ContextVersionReader, SearchService } from '../modules/search/index.js';
import { ContextHubService } from '../modules/context-hub/index.js';
import { HubFilesService } from '../modules/hub-files/index.js';
import { orgProjectCreationGuard } from '../modules/org/index.js';
import { MoneyService } from '../modules/money/index.js';
import { ContextEventsService, contextEventsDemoSeeder } from '../modules/context-events/index.js';
import { EvaluatorPipeline, type Evaluators } from '../modules/evaluators/index.js';
import { BackupService } from '../modules/backup/index.js';
import {
  AlertDelivery,
  AlertDestinations,
  AlertLog,
  AlertRouter,
  AlertRules,
  type Alerts,
  alertSweep,
} from '../modules/alerts/index.js';
import {
  AnomaliesService,
  AnomalyExplainService,
  AnomalyFeedbackService,
  AnomalyTriageService,
  anomaliesModel,
} from '../modules/anomalies/index.js';
import { DataQualityService } from '../modules/data-quality/index.js';
import { FactsService } from '../modules/facts/index.js';
import { InsightsService, KpisService } from '../modules/insights/index.js';
import { ReportsService } from '../modules/reports/index.js';
import { SchedulePlan } from '../modules/scheduling/index.js';
import { SystemService } from '../modules/system/index.js';
import { Scheduler } from '../platform/jobs/scheduler.js';
import { createOrgServices } from './org-services.js';
import { VERSION } from './version.js';

export type { ServiceDeps, Services } from '../modules/services.js';

/**
 * Every service, built once per process (`serve` and `worker` alike, through createServiceApp),
 * each with all it depends on given to its constructor: a service is finished when it exists.
 * The order follows the dependencies: the run ledger comes before ingestion, which starts the runs
 * FlowsService queues; the facts log and the anomalies model before ingestion, which reports to
 * one and builds the other; the alert router before the schedule plan, whose tick sweeps it.
 */
export function createServices(deps: ServiceDeps): Services {
  const org = createOrgServices({ db: deps.db, clock: deps.clock, changes: deps.feed });
  const directory = new ProjectDirectory(deps.db, deps.clock, deps.feed);
  const projects = new ProjectsService(deps.db, deps.feed, org.audit, directory, [
    orgProjectCreationGuard(org.settings),
  ]);
  const money = new MoneyService(deps.db, deps.config.fxRatesUrl);
  const contextEvents = new ContextEventsService(deps.db, projects);
  // The write gate needs neither Skills nor Knowledge, so it comes first and each gets it built.
  const gate = new ProposalGate(deps.db, deps.feed, org.audit);
  const skills = new SkillsService({ db: deps.db, projects, gate, changes: deps.feed, limits: org.projectLimits });
  const knowledge = new KnowledgeService({ db: deps.db, projects, gate, limits: org.projectLimits });
  const proposals = new ProposalsService(deps.db, projects, [skills, knowledge], deps.feed, org.audit);
  const taxonomy = new TaxonomyService(deps.db, projects, { skills, knowledge }, org.projectLimits);
  const completion = new CompletionService(deps.db, projects);
  const skillPrompts = new SkillPromptsService(deps.db, projects, skills, taxonomy, completion);
  // One reader of the projects' content versions for every cache tagged with them.
  const contextVersions = new ContextVersionReader(deps.db);
  const skillBundles = new SkillBundlesService(projects, skills, knowledge, taxonomy, contextVersions, deps.log);
  const search = new SearchService(deps.db, projects, deps.config.searchCacheEntries, contextVersions);
  const contextHub = new ContextHubService({ skills, knowledge, taxonomy });
  const hubFiles = new HubFilesService({
    db: deps.db,
    projects,
    skills,
    knowledge,
    taxonomy,
    audit: org.audit,
    limits: org.projectLimits,
    gate,
  });
  const credentials = new CredentialsService(deps.db, projects, deps.config, deps.clock);
  const anomalies = new AnomaliesService(deps.db, projects, contextEvents, deps.feed);
  const insights = new InsightsService(deps.db, projects, anomalies, contextEvents);
  const facts = new FactsService(deps.db);
  const runLedger = new FlowRunLedger(deps.db);
  const ingestion = new IngestionService({
    db: deps.db,
    jobs: deps.jobs,
    credentials,
    flows: runLedger,
    projects,
    clock: deps.clock,
    log: deps.log,
    changes: deps.feed,
    facts,
    models: [anomaliesModel(anomalies, () => deps.clock.now())],
    retryBaseSeconds: deps.config.datastreamRetryBaseSeconds,
  });
  const flows = new FlowsService(deps.db, projects, deps.config, credentials, runLedger, ingestion, org.projectLimits);
  const dq = new DataQualityService(deps.db, projects);
  const pipeline = new EvaluatorPipeline({
    db: deps.db,
    jobs: deps.jobs,
    feed: deps.feed,
    clock: deps.clock,
    log: deps.log,
    anomalies,
    insights,
    dq,
    facts,
    flows,
    projects,
  });
  const alerts = createAlerts(deps, { projects, credentials, contextEvents, insights, facts, audit: org.audit });
  const plan = new SchedulePlan({
    db: deps.db,
    config: deps.config,
    clock: deps.clock,
    log: deps.log,
    jobs: deps.jobs,
    flows,
    projects,
    ingestion,
    money,
    pipeline,
    sweeps: { alerts: alerts.sweep },
  });
  const evaluators: Evaluators = {
    anomalies,
    explain: new AnomalyExplainService(deps.db, projects, contextEvents),
    insights,
    kpis: new KpisService(deps.db, projects),
    dq,
    facts,
    pipeline,
    plan,
    reports: new ReportsService(deps.db, projects, flows),
    scheduler: new Scheduler({ jobs: deps.jobs, clock: deps.clock, log: deps.log, tick: (now) => plan.tick(now) }),
  };
  const anomalyTriage = new AnomalyTriageService({
    db: deps.db,
    projects,
    anomalies,
    members: org.members,
    events: contextEvents,
    audit: org.audit,
    delivery: alerts.delivery,
    changes: deps.feed,
  });
  // The demo's seeders, given whole at construction and run in this order.
  const demo = new DemoSeed(projects, [
    { name: 'context-events', seed: contextEventsDemoSeeder(deps.db, projects) },
    { name: 'context-hub', seed: contextHubDemoSeeder({ skills, knowledge, taxonomy }) },
    { name: 'datastreams', seed: datastreamsDemoSeeder({ credentials, flows, projects }) },
  ]);
  return {
    deps,
    skills,
    skillPrompts,
    skillBundles,
    completion,
    knowledge,
    taxonomy,
    proposals,
    search,
    contextHub,
    hubFiles,
    projects,
    org,
    demo,
    money,
    contextEvents,
    credentials,
    ingestion,
    flows,
    evaluators,
    alerts,
    anomalyTriage,
    anomalyFeedback: new AnomalyFeedbackService(deps.db, projects),
    backups: new BackupService(deps.db, org.audit),
    system: new SystemService({ db: deps.db, version: VERSION, startedAt: deps.clock.now() }),
  };
}

/** Alert destinations, rules and mutes, the router over the evaluators' facts, delivery and its log. */
function createAlerts(
  deps: ServiceDeps,
  m: {
    projects: ProjectsService;
    credentials: CredentialsService;
    contextEvents: ContextEventsService;
    insights: InsightsService;
    facts: FactsService;
    audit: Services['org']['audit'];
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
    insights: m.insights,
    facts: m.facts,
    delivery,
  });
  return {
    destinations: new AlertDestinations({
      db: deps.db,
      projects: m.projects,
      box: m.credentials.box,
      audit: m.audit,
      delivery,
      allowPrivate: () => deps.config.alertsAllowPrivateNetworks,
    }),
    rules: new AlertRules({ db: deps.db, projects: m.projects, audit: m.audit }),
    router,
    delivery,
    log: new AlertLog({ db: deps.db, projects: m.projects, audit: m.audit, delivery }),
    sweep: alertSweep(router, delivery),
  };
}
