import type { ProjectLimits } from '../org/index.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Config } from '../../platform/config.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldViolation } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { violationsOf } from '../../platform/validation.js';
import type { CredentialsService } from '../credentials/index.js';
import { addDays, dayInZone, PROVIDER_NAMES, providerFor } from '../providers/index.js';
import type { ProjectsService } from '../projects/index.js';
import { cadenceProblem, scheduleOf, type Schedule } from './cadence.js';
import { DATASET_NAMES, DATASETS } from './catalog.js';
import * as repo from './flows.repo.js';
import {
  DatastreamDefinition,
  FLOW_KINDS,
  ReportDefinition,
  type RunsQuery,
  type UpsertFlowInput,
} from './flows.schemas.js';

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const prefixed = (prefix: string, violations: FieldViolation[]) =>
  violations.map((v) => ({ ...v, path: v.path ? `${prefix}.${v.path}` : prefix }));

export type { DatastreamRow, ReportDefinitionRow, RunRow } from './flows.repo.js';
import type { FlowRuns } from './flows.ledger.js';

export type { FlowRuns, NewRun } from './flows.ledger.js';

/** What starts a datastream's run and follows it (ingestion, built on the run ledger before this service). */
export interface RunStarter {
  enqueue(
    ctx: RequestContext,
    ds: repo.DatastreamRow,
    window: { from: string; to: string },
    trigger: string,
  ): Promise<repo.RunRow>;
  /** The run once it succeeded or failed (or `maxWaitMs` passed), reporting each change on the way. */
  waitForRun(
    runId: string,
    onProgress: (run: repo.RunRow) => Promise<void>,
    signal: AbortSignal,
    maxWaitMs?: number,
  ): Promise<repo.RunRow>;
}

export type UpsertResult =
  | { kind: 'datastream'; datastream: repo.DatastreamRow }
  | { kind: 'report_definition'; report_definition: repo.ReportDefinitionRow };

export class FlowsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly config: Config,
    private readonly credentials: CredentialsService,
    /** Run rows as jobs read them; the runner records its runs there too. */
    private readonly ledger: FlowRuns,
    /** Starts datastream runs (ingestion). */
    private readonly runner: RunStarter,
    /** Entitlement limits: datastreams per project. */
    private readonly limits?: ProjectLimits,
  ) {}

  schedule(row: Pick<repo.DatastreamRow, 'cadence' | 'timezone'>, now: Date): Schedule {
    return scheduleOf(
      row.cadence,
      row.timezone,
      { nightlyHour: this.config.schedulerNightlyHour, timezone: this.config.schedulerTimezone },
      now,
    );
  }

  async list(ctx: RequestContext, projectId: string) {
    await this.projects.resolve(ctx, projectId, 'data.read');
    const [datastreams, reportDefinitions] = await Promise.all([
      repo.listDatastreams(this.db, projectId),
      repo.listReportDefinitions(this.db, projectId),
    ]);
    return { datastreams, reportDefinitions };
  }

  async listDatastreams(ctx: RequestContext, projectRef: string | undefined) {
    const { project, resolvedFrom } = await this.projects.resolve(ctx, projectRef, 'data.read');
    return { project, resolvedFrom, datastreams: await repo.listDatastreams(this.db, project.id) };
  }

  /** Validates everything (one errors[] entry per violation) before anything is stored. */
  async upsert(ctx: RequestContext, input: UpsertFlowInput): Promise<UpsertResult> {
    const { project } = await this.projects.resolve(ctx, input.project_id, 'admin');
    if (!(FLOW_KINDS as readonly string[]).includes(input.kind)) {
      throw new ValidationError([{ path: 'kind', message: `unknown kind; use one of: ${FLOW_KINDS.join(', ')}` }]);
    }
    const now = ctx.clock.now();
    if (input.kind === 'datastream') {
      const errors: FieldViolation[] = [];
      const parsed = DatastreamDefinition.safeParse(input.definition);
      if (!parsed.success) errors.push(...prefixed('definition', violationsOf(parsed.error)));
      const raw = input.definition as Record<string, unknown>;
      const provider = typeof raw.provider === 'string' ? raw.provider : undefined;
      if (provider !== undefined && !providerFor(provider))
        errors.push({
          path: 'definition.provider',
          message: `unknown provider; use one of: ${PROVIDER_NAMES.join(', ')}`,
        });
      if (typeof raw.connection_ref_id === 'string') {
        const connection = await this.credentials.find(project.id, raw.connection_ref_id);
        if (!connection)
          errors.push({
            path: 'definition.connection_ref_id',
            message: `project ${project.id} has no connection ${raw.connection_ref_id}; create it with POST /api/credentials`,
          });
        else if (provider !== undefined && connection.provider !== provider) {
          errors.push({
            path: 'definition.provider',
            message: `connection ${connection.connection_ref_id} uses provider ${connection.provider}, not ${provider}`,
          });
        }
      }
      if (typeof raw.cadence === 'string') {
        const problem = cadenceProblem(raw.cadence.trim());
        if (problem) errors.push({ path: 'definition.cadence', message: problem });
      }
      if (errors.length || !parsed.success) throw new ValidationError(dedupe(errors));
      const def = parsed.data;
      const timezone = def.timezone ?? project.timezone;
      const cadence = def.cadence ?? null;
      const existing = await repo.findDatastreamByName(this.db, project.id, def.name);
      if (!existing) await this.limits?.assertCanAddDatastream(project.id, def.name);
      const row = await repo.upsertDatastream(this.db, {
        id: existing?.id ?? newId('ds'),
        project_id: project.id,
        name: def.name,
        connection_ref_id: def.connection_ref_id,
        provider: def.provider,
        cadence,
        lookback_days: def.retrieval_window.lookback_days,
        start_date: def.retrieval_window.start_date ?? null,
        timezone,
        next_run_at: this.schedule({ cadence, timezone }, now).next_run_at,
        now,
      });
      return { kind: 'datastream', datastream: row };
    }
    const errors: FieldViolation[] = [];
    const parsed = ReportDefinition.safeParse(input.definition);
    if (!parsed.success) errors.push(...prefixed('definition', violationsOf(parsed.error)));
    errors.push(...catalogViolations(input.definition as Record<string, unknown>));
    if (errors.length || !parsed.success) throw new ValidationError(dedupe(errors));
    const existing = (await repo.listReportDefinitions(this.db, project.id)).find((r) => r.name === parsed.data.name);
    const row = await repo.upsertReportDefinition(this.db, {
      id: existing?.id ?? newId('rd'),
      project_id: project.id,
      name: parsed.data.name,
      definition: parsed.data,
      now,
    });
    return { kind: 'report_definition', report_definition: row };
  }

  /** Queues a run now (on-demand runs never depend on the scheduler) and answers it. */
  async runNow(
    ctx: RequestContext,
    datastreamRef: string,
    projectRef?: string,
    trigger = 'manual',
  ): Promise<repo.RunRow> {
    const datastream = await this.findDatastream(ctx, datastreamRef, projectRef);
    const window = await this.windowFor(datastream, ctx.clock.now());
    return this.runner.enqueue(ctx, datastream, window, trigger);
  }

  private async findDatastream(ctx: RequestContext, ref: string, projectRef?: string): Promise<repo.DatastreamRow> {
    if (projectRef !== undefined) {
      const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
      const row =
        (await repo.findDatastream(this.db, ref)) ?? (await repo.findDatastreamByName(this.db, project.id, ref));
      if (row && row.project_id === project.id) return row;
      throw new NotFoundError('datastream_not_found', `Datastream ${ref} does not exist in project ${project.id}.`, {
        hint: 'Call list_datastreams for the ids and names.',
      });
    }
    const row = await repo.findDatastream(this.db, ref);
    // Without a grant the answer is the same as for a missing datastream's project (no probing).
    if (row) this.projects.assertGrant(ctx, row.project_id, 'context.write');
    if (!row)
      throw new NotFoundError('datastream_not_found', `Datastream ${ref} does not exist.`, {
        hint: 'GET /api/flows?project_id=… lists the datastreams.',
      });
    return row;
  }

  /** First run with a start_date backfills from it; later runs re-read the lookback window. */
  async windowFor(ds: repo.DatastreamRow, now: Date): Promise<{ from: string; to: string }> {
    const to = dayInZone(now, ds.timezone);
    let from = addDays(to, -(ds.lookback_days - 1));
    if (ds.start_date && ds.start_date < from && !(await repo.hasSucceededRun(this.db, ds.id))) from = ds.start_date;
    return { from, to };
  }

  async listRuns(ctx: RequestContext, q: RunsQuery) {
    await this.projects.resolve(ctx, q.project_id, 'data.read');
    const after = decodeCursor(q.cursor, z.tuple([z.string(), z.string()]));
    const rows = await repo.listRuns(this.db, {
      projectId: q.project_id,
      datastreamId: q.datastream_id,
      after,
      limit: q.limit + 1,
    });
    return pageOf(rows, q.limit, (r) => [new Date(r.queued_at).toISOString(), r.id]);
  }

  /** A run of a project the caller may read; a run of another project reads as missing (no probing). */
  async readRun(ctx: RequestContext, projectRef: string | undefined, runId: string): Promise<repo.RunRow> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'data.read');
    const run = await repo.findRun(this.db, runId);
    if (!run || run.project_id !== project.id)
      throw new NotFoundError('run_not_found', `Run ${runId} does not exist in project ${project.id}.`, {
        hint: 'Use the run id run_datastream answered, or GET /api/flows/runs?project_id=… for the recent runs.',
      });
    return run;
  }

  async getRun(id: string): Promise<repo.RunRow | undefined> {
    return this.ledger.getRun(id);
  }

  /** A datastream's row by id, with no grant check (jobs: the scheduler, the pipeline). */
  async datastreamRow(id: string): Promise<repo.DatastreamRow | undefined> {
    return this.ledger.datastreamRow(id);
  }

  /** Whether the datastream ever had a run (the demo seeding queues its backfill once). */
  async hasAnyRun(datastreamId: string): Promise<boolean> {
    return repo.hasAnyRun(this.db, datastreamId);
  }

  /** A project's report definitions by name, with no grant check (the caller resolved the project). */
  async reportDefinitions(projectId: string): Promise<repo.ReportDefinitionRow[]> {
    return repo.listReportDefinitions(this.db, projectId);
  }

  /** Ids of the datastreams whose stored next run is due at `now`, oldest slot first. */
  async dueDatastreamIds(now: Date): Promise<string[]> {
    return repo.dueDatastreamIds(this.db, now);
  }

  /** Moves a claimed slot on to `next`, only if nobody moved it since (`db`: the claim's transaction). */
  async advanceNextRun(db: SqlExecutor, id: string, next: Date | null, claimed: Date): Promise<void> {
    await repo.advanceNextRun(db, id, next, claimed);
  }
}

function catalogViolations(def: Record<string, unknown>): FieldViolation[] {
  const errors: FieldViolation[] = [];
  if (typeof def.dataset !== 'string') return errors;
  const dataset = DATASETS[def.dataset];
  if (!dataset)
    return [{ path: 'definition.dataset', message: `unknown dataset; use one of: ${DATASET_NAMES.join(', ')}` }];
  const check = (list: unknown, allowed: readonly string[], what: string, path: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      if (typeof item === 'string' && !allowed.includes(item))
        errors.push({
          path: `${path}.${i}`,
          message: `unknown ${what} "${item}" for ${def.dataset}; use one of: ${allowed.join(', ')}`,
        });
    });
  };
  check(def.metrics, dataset.metrics, 'metric', 'definition.metrics');
  check(def.dimensions, dataset.dimensions, 'dimension', 'definition.dimensions');
  if (Array.isArray(def.filters)) {
    def.filters.forEach((f, i) => {
      const dim = (f as Record<string, unknown> | null)?.dimension;
      if (typeof dim === 'string' && !dataset.dimensions.includes(dim))
        errors.push({
          path: `definition.filters.${i}.dimension`,
          message: `unknown dimension "${dim}" for ${def.dataset}`,
        });
    });
  }
  return errors;
}

function dedupe(errors: FieldViolation[]): FieldViolation[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.path}|${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
