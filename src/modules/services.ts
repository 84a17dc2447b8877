import type { SkillBundlesService } from './skill-bundles/index.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { ChangeFeed } from '../platform/events/change-feed.js';
import type { JobQueues } from '../platform/jobs/queues.js';
import type { Logger } from '../platform/logger.js';
import type { ContextEventsService } from './context-events/index.js';
import type { BackupService } from './backup/index.js';
import type { Alerts } from './alerts/index.js';
import type { AnomalyFeedbackService, AnomalyTriageService } from './anomalies/index.js';
import type { CredentialsService } from './credentials/index.js';
import type { DemoSeed } from './demo/index.js';
import type { ContextHubService } from './context-hub/index.js';
import type { Evaluators } from './evaluators/index.js';
import type { HubFilesService } from './hub-files/index.js';
import type { FlowsService } from './flows/index.js';
import type { IngestionService } from './ingestion/index.js';
import type { KnowledgeService } from './knowledge/index.js';
import type { MoneyService } from './money/index.js';
import type { OrgServices } from './org/index.js';
import type { ProjectsService } from './projects/index.js';
import type { ProposalsService } from './proposals/index.js';
import type { SearchService } from './search/index.js';
import type { SkillPromptsService, SkillsService } from './skills/index.js';
import type { CompletionService } from './completion/index.js';
import type { TaxonomyService } from './taxonomy/index.js';
import type { SystemService } from './system/index.js';

// The shape of the assembled services, so that module registration (index.ts) can name it without
// importing the assembly (src/app/services.ts builds them).

export interface ServiceDeps {
  db: Database;
  feed: ChangeFeed;
  config: Config;
  clock: Clock;
  log: Logger;
  jobs: JobQueues;
}

/** Every module's service, built once per process. Adapters and jobs call only these. */
export interface Services {
  deps: ServiceDeps;
  projects: ProjectsService;
  /** Organization: audit log, settings and limits, members and grants, rate limit. */
  org: OrgServices;
  demo: DemoSeed;
  /** Connections with encrypted secrets, and the built-in providers. */
  credentials: CredentialsService;
  /** Runs: provider → raw landing → models (ad_performance_daily, kpis_daily; the evaluators add theirs). */
  ingestion: IngestionService;
  /** Datastreams, report definitions, on-demand runs (/api/flows). */
  flows: FlowsService;
  skills: SkillsService;
  /** Skills as MCP prompts, per caller. */
  skillPrompts: SkillPromptsService;
  skillBundles: SkillBundlesService;
  /** Values for prompt arguments and resource-template variables (completion/complete). */
  completion: CompletionService;
  knowledge: KnowledgeService;
  taxonomy: TaxonomyService;
  /** The agent_writes policy and the proposals it creates. */
  proposals: ProposalsService;
  search: SearchService;
  /** What spans the hub's parts: the whole hub of a project (get_context_hub). */
  contextHub: ContextHubService;
  /** The hub as files: export and import of a folder (context as code, `context-hub export|import`). */
  hubFiles: HubFilesService;
  money: MoneyService;
  contextEvents: ContextEventsService;
  /** Anomaly surveillance, insight composer, data quality, facts and the scheduler. */
  evaluators: Evaluators;
  /** Alert destinations, rules, mutes, delivery and its log. */
  alerts: Alerts;
  /** Triage of fired anomalies: status, note, assignee, linked event; feeds baselines. */
  anomalyTriage: AnomalyTriageService;
  /** Precision per metric and channel from triage, and replays of candidate settings. */
  anomalyFeedback: AnomalyFeedbackService;
  /** Snapshots of the embedded store (`context-hub backup`, POST /api/admin/backup). */
  backups: BackupService;
  /** The liveness and readiness probes. */
  system: SystemService;
}
