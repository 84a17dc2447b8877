import type { ServiceDeps, Services } from '../modules/services.js';
import { contextHubDemoSeeder, datastreamsDemoSeeder, DemoSeed } from '../modules/demo/index.js';
import { ProjectDirectory } from '../modules/projects/project-directory.js';
import { ProjectsService } from '../modules/projects/projects.service.js';
import { CredentialsService } from '../modules/credentials/credentials.service.js';
import { FlowsService } from '../modules/flows/flows.service.js';
import { IngestionService } from '../modules/ingestion/ingestion.service.js';
import { SkillsService } from '../modules/skills/index.js';
import { SkillPromptsService } from '../modules/skills/index.js';
import { CompletionService } from '../modules/completion/index.js';
import { KnowledgeService } from '../modules/knowledge/index.js';
import { ProposalGate, ProposalsService } from '../modules/proposals/index.js';
import { TaxonomyService } from '../modules/taxonomy/taxonomy.service.js';
import { SearchService } from '../modules/search/index.js';
import { ContextHubService } from '../modules/context-hub/index.js';
import { HubFilesService } from '../modules/hub-files/index.js';
import { createOrgServices, guardProjectCreation } from '../modules/org/index.js';
import { MoneyService } from '../modules/money/money.service.js';
import { ContextEventsService, contextEventsDemoSeeder } from '../modules/context-events/index.js';
import { createEvaluators } from '../modules/evaluators/index.js';
import { BackupService } from '../modules/backup/index.js';
import { createAlerts } from '../modules/alerts/index.js';
import { AnomalyFeedbackService, AnomalyTriageService } from '../modules/anomalies/index.js';

export type { ServiceDeps, Services } from '../modules/services.js';

export function createServices(deps: ServiceDeps): Services {
  const org = createOrgServices({ db: deps.db, clock: deps.clock, changes: deps.feed });
  const directory = new ProjectDirectory(deps.db, deps.clock);
  directory.attach(deps.feed);
  const projects = new ProjectsService(deps.db, deps.feed, org.audit, directory);
  guardProjectCreation(projects, org);
  const demo = new DemoSeed(projects);
  const money = new MoneyService(deps.db, deps.config.fxRatesUrl);
  const contextEvents = new ContextEventsService(deps.db, projects);
  demo.add('context-events', contextEventsDemoSeeder(deps.db, projects));
  // The write gate needs neither Skills nor Knowledge, so it comes first and each gets it built.
  const gate = new ProposalGate(deps.db, deps.feed, org.audit);
  const skills = new SkillsService({ db: deps.db, projects, gate, changes: deps.feed, limits: org.projectLimits });
  const knowledge = new KnowledgeService({ db: deps.db, projects, gate, limits: org.projectLimits });
  const proposals = new ProposalsService(deps.db, projects, [skills, knowledge], deps.feed, org.audit);
  const taxonomy = new TaxonomyService(deps.db, projects, { skills, knowledge }, org.projectLimits);
  const completion = new CompletionService(deps.db, projects);
  const skillPrompts = new SkillPromptsService(deps.db, projects, skills, taxonomy, completion);
  const search = new SearchService(deps.db, projects, deps.config.searchCacheEntries);
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
  demo.add('context-hub', contextHubDemoSeeder({ skills, knowledge, taxonomy }));
  const credentials = new CredentialsService(deps.db, projects, deps.config, deps.clock);
  const flows = new FlowsService(deps.db, projects, deps.config, credentials, org.projectLimits);
  const ingestion = new IngestionService(
    deps.db,
    deps.jobs,
    credentials,
    flows,
    projects,
    deps.clock,
    deps.log,
    deps.feed,
    deps.config.datastreamRetryBaseSeconds,
  );
  flows.startRunsWith(ingestion);
  demo.add('datastreams', datastreamsDemoSeeder({ credentials, flows, projects }));
  const evaluators = createEvaluators(deps, { projects, contextEvents, ingestion, flows, money });
  const alerts = createAlerts(deps, { projects, credentials, contextEvents, evaluators, audit: org.audit });
  const anomalyTriage = new AnomalyTriageService({
    db: deps.db,
    projects,
    anomalies: evaluators.anomalies,
    members: org.members,
    events: contextEvents,
    audit: org.audit,
    delivery: alerts.delivery,
    changes: deps.feed,
  });
  return {
    deps,
    skills,
    skillPrompts,
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
  };
}
