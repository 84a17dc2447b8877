/**
 * Detection: the rule over each series and the evaluation that runs it over stored KPIs and writes
 * anomalies_daily and the episodes. A call through this face runs detection (`detection.evaluate`);
 * the anomaly reads are the module's repo.
 */
export {
  computeSeries,
  evaluate,
  lookbackDays,
  ruleOf,
  type EvaluationPhases,
  type SeriesResult,
} from './detection.evaluate.js';
export { dateOf, dayNumber } from './detection.days.js';
export { crossFieldViolations, effective } from './detection.settings.js';
export { coveredDays } from './detection.events.js';
export { explainAcrossSeries, RATIO_PARTS, type ProjectSeries } from './detection.explained.js';
export { readPoints, type ExpectedEvent } from './detection.repo.js';
export * from './detection.schemas.js';
export {
  evaluateSeries,
  type CoveringEvent,
  type EvaluatedPoint,
  type RuleParams,
  type SeriesPoint,
  type SeriesState,
} from './rule/rule.series.js';
// The statements the evaluation issues, named so that tests can explain or spot the very text it runs.
export { DELETE_RANGE_SQL, STORED_FROM_SQL } from './detection.repo.js';
export { CARRIED_STATE_SQL, EXCLUDED_DAYS_SQL, QUIET_DAYS_SQL } from './detection.state.repo.js';
export { readState } from './detection.state.js';
