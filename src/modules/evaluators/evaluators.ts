import type { AnomaliesService, AnomalyExplainService } from '../anomalies/index.js';
import type { DataQualityService } from '../data-quality/index.js';
import type { FactsService } from '../facts/index.js';
import type { InsightsService, KpisService } from '../insights/index.js';
import type { ReportsService } from '../reports/index.js';
import type { SchedulePlan } from '../scheduling/index.js';
import type { Scheduler } from '../../platform/jobs/scheduler.js';
import type { EvaluatorPipeline } from './evaluators.pipeline.js';

/**
 * The three evaluators (anomaly surveillance, insight composer, data quality), their facts, the
 * reports and the scheduler, as the app's wiring builds them once.
 */
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
