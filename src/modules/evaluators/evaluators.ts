import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import type { ChangeFeed } from '../../platform/events/change-feed.js';
import type { JobQueues } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import { AnomaliesService, AnomalyExplainService, anomaliesModel } from '../anomalies/index.js';
import type { ContextEventsService } from '../context-events/context-events.service.js';
import { DataQualityService } from '../data-quality/dq.service.js';
import type { FlowsService } from '../flows/flows.service.js';
import type { IngestionService } from '../ingestion/ingestion.service.js';
import { InsightsService } from '../insights/insights.service.js';
import { KpisService } from '../insights/kpis.service.js';
import type { MoneyService } from '../money/money.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { Scheduler } from '../../platform/jobs/scheduler.js';
import { FactsService } from '../facts/facts.service.js';
import { SchedulePlan } from '../scheduling/scheduling.service.js';
import { EvaluatorPipeline } from './evaluators.pipeline.js';
import { ReportsService } from '../reports/reports.service.js';

/** The platform pieces the evaluators are built on (the app's ServiceDeps satisfies it). */
export interface EvaluatorDeps {
  db: Database;
  feed: ChangeFeed;
  config: Config;
  clock: Clock;
  log: Logger;
  jobs: JobQueues;
}

export interface Evaluators {
  anomalies: AnomaliesService;
  explain: AnomalyExplainService;
  insights: InsightsService;
  kpis: KpisService;
  dq: DataQualityService;
  facts: FactsService;
  pipeline: EvaluatorPipeline;
  plan: SchedulePlan;
  reports: ReportsService;
  scheduler: Scheduler;
}

/** What the evaluators are built on; declared here so modules/ need not import the app's assembly. */
export interface EvaluatorDeps {
  db: Database;
  feed: ChangeFeed;
  config: Config;
  clock: Clock;
  log: Logger;
  jobs: JobQueues;
}

/**
 * The three evaluators (anomaly surveillance, insight composer, data quality), their facts and
 * the scheduler, built once. `anomalies_daily` joins the ingestion model graph after kpis_daily.
 */
export function createEvaluators(
  deps: EvaluatorDeps,
  m: {
    projects: ProjectsService;
    contextEvents: ContextEventsService;
    ingestion: IngestionService;
    flows: FlowsService;
    money: MoneyService;
  },
): Evaluators {
  const anomalies = new AnomaliesService(deps.db, m.projects, m.contextEvents, deps.feed);
  m.ingestion.models.register(anomaliesModel(anomalies, () => deps.clock.now()));
  const insights = new InsightsService(deps.db, m.projects, anomalies, m.contextEvents);
  const kpis = new KpisService(deps.db, m.projects);
  const dq = new DataQualityService(deps.db, m.projects);
  const facts = new FactsService(deps.db);
  m.ingestion.reportFailuresTo(facts);
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
    flows: m.flows,
    projects: m.projects,
  });
  const plan = new SchedulePlan({
    db: deps.db,
    config: deps.config,
    clock: deps.clock,
    log: deps.log,
    jobs: deps.jobs,
    flows: m.flows,
    projects: m.projects,
    ingestion: m.ingestion,
    money: m.money,
    pipeline,
  });
  const scheduler = new Scheduler({ jobs: deps.jobs, clock: deps.clock, log: deps.log, tick: (now) => plan.tick(now) });
  const reports = new ReportsService(deps.db, m.projects, m.flows);
  const explain = new AnomalyExplainService(deps.db, m.projects, m.contextEvents);
  return { anomalies, explain, insights, kpis, dq, facts, pipeline, plan, scheduler, reports };
}
