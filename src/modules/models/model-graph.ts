import type { SqlExecutor } from '../../platform/db/database.js';

/** What one model run covers: one project, one datastream's run, the window's dates. */
export interface ModelScope {
  projectId: string;
  datastreamId: string;
  runId: string;
  from: string;
  to: string;
  reportingCurrency: string;
}

/** One committed piece of a run's landing: raw_ad_records rows with this run_id and `chunk = index`. */
export interface LandingChunk {
  index: number;
  /** Records the landing wrote in this chunk. */
  rows: number;
}

/**
 * A model's build split along the landing, for a store where the landing and the model transaction
 * run side by side (PostgreSQL: two connections). Opened inside the model transaction before the
 * first chunk lands; the graph calls it in chunk order, one call at a time.
 */
export interface IncrementalBuild {
  /** Chunk `chunk.index` has landed and is committed: add its rows. */
  addChunk(chunk: LandingChunk): Promise<void>;
  /** Every chunk has been added: finish (a fallback, a check over the whole run). Returns rows written. */
  finish(): Promise<number>;
}

/**
 * A SQL model (like a dbt model): it rebuilds its rows for the scope's dates inside the caller's
 * transaction (delete-and-insert per date), after the models it depends on. Returns rows written.
 */
export interface ModelSpec {
  name: string;
  dependsOn: readonly string[];
  build(tx: SqlExecutor, scope: ModelScope): Promise<number>;
  /**
   * Optional: the same rows, built chunk by chunk while the landing still runs. Only a model that
   * reads nothing but the run's raw rows and writes only its own datastream's rows may offer it: it
   * has no dependencies and runs before the project lock (ModelGraph.followLanding). Whatever the
   * chunking, it must write exactly what `build` writes.
   */
  incremental?(tx: SqlExecutor, scope: ModelScope): Promise<IncrementalBuild>;
}

/** The registration list: ingestion's models first; the evaluators add `anomalies_daily`. */
export class ModelGraph {
  private readonly models = new Map<string, ModelSpec>();

  register(model: ModelSpec): void {
    if (this.models.has(model.name)) throw new Error(`model ${model.name} registered twice`);
    if (model.incremental && model.dependsOn.length)
      throw new Error(`model ${model.name} builds incrementally, so it cannot depend on other models`);
    this.models.set(model.name, model);
  }

  names(): string[] {
    return [...this.models.keys()];
  }

  /** Dependency order (Kahn); an unknown dependency or a cycle is a programming error. */
  ordered(): ModelSpec[] {
    const out: ModelSpec[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, from?: string) => {
      const model = this.models.get(name);
      if (!model) throw new Error(`model ${from} depends on unknown model ${name}`);
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') throw new Error(`model dependency cycle through ${name}`);
      state.set(name, 'visiting');
      for (const dep of model.dependsOn) visit(dep, name);
      state.set(name, 'done');
      out.push(model);
    };
    for (const name of [...this.models.keys()].sort()) visit(name);
    return out;
  }

  /** Rows written per model, and each model's wall-clock milliseconds (for the run log). */
  async buildAll(
    tx: SqlExecutor,
    scope: ModelScope,
  ): Promise<{ written: Record<string, number>; ms: Record<string, number> }> {
    await tx.query(SET_WORK_MEM);
    await lockProject(tx, scope);
    const written: Record<string, number> = {};
    const ms: Record<string, number> = {};
    for (const model of this.ordered()) {
      const started = performance.now();
      written[model.name] = await model.build(tx, scope);
      ms[model.name] = Math.round(performance.now() - started);
    }
    return { written, ms };
  }

  /**
   * The models of one run built while its raw rows still land: every model that offers an
   * incremental build opens it (inside `tx`) and follows the landing chunk by chunk; the rest
   * build, in dependency order, when `finish()` is called after the landing. Writes exactly what
   * `buildAll` writes. Returns at once: the opening is the follower's first step, so the landing
   * need not wait for it.
   */
  followLanding(tx: SqlExecutor, scope: ModelScope): LandingFollower {
    return new LandingFollower(tx, scope, this.ordered());
  }
}

// Window-sized sorts and hashes stay in memory instead of spilling to disk (this transaction only).
const SET_WORK_MEM = "SET LOCAL work_mem = '64MB'";

/**
 * Project-level datasets (kpis_daily, anomalies_daily) are rebuilt per date for the whole project:
 * two datastreams of one project must not rebuild the same dates at once.
 */
async function lockProject(tx: SqlExecutor, scope: ModelScope): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('context-hub:models:' || $1))", [scope.projectId]);
}

/**
 * One run's models following its landing. Chunks are handed over as they commit and applied one at
 * a time on the model transaction (a connection runs one statement at a time; the landing must not
 * wait for it, so the hand-over only queues). A model failure is kept, skips the remaining chunks
 * and is thrown by `finish()`; the landing can ask `failed` to stop early.
 */
export class LandingFollower {
  private queue: Promise<void>;
  private failure: { error: unknown } | undefined;
  private closed = false;
  private readonly incremental = new Map<string, IncrementalBuild>();
  private readonly ms: Record<string, number> = {};

  constructor(
    private readonly tx: SqlExecutor,
    private readonly scope: ModelScope,
    private readonly ordered: readonly ModelSpec[],
  ) {
    this.queue = this.step(async () => {
      await tx.query(SET_WORK_MEM);
      // The statements here are planned without statistics on rows that have just landed, so
      // their cost estimates say little, and a JIT compilation they trigger costs more than it
      // saves (BENCHMARKS.md, ingest notes).
      await tx.query('SET LOCAL jit = off');
      for (const model of ordered) {
        if (!model.incremental) continue;
        const started = performance.now();
        this.incremental.set(model.name, await model.incremental(tx, scope));
        this.ms[model.name] = performance.now() - started;
      }
    });
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Chunk `chunk.index` is committed in raw_ad_records; never throws (see `finish`). */
  chunkLanded(chunk: LandingChunk): void {
    this.queue = this.queue.then(() =>
      this.step(async () => {
        for (const [name, build] of this.incremental) {
          const started = performance.now();
          await build.addChunk(chunk);
          this.ms[name]! += performance.now() - started;
        }
      }),
    );
  }

  /** Runs `work` unless a step failed or the follower was closed; keeps the first failure. */
  private async step(work: () => Promise<void>): Promise<void> {
    // After stop() the transaction is being rolled back and its connection handed back to the
    // pool: nothing may run on it any more.
    if (this.failure || this.closed) return;
    try {
      await work();
    } catch (error) {
      this.failure = { error };
    }
  }

  /** The landing failed: wait for the statement in flight and run nothing more. */
  async stop(): Promise<void> {
    this.closed = true;
    await this.queue;
  }

  /** The landing finished: the incremental models complete, then the others build in dependency order. */
  async finish(): Promise<{ written: Record<string, number>; ms: Record<string, number> }> {
    await this.queue;
    this.closed = true;
    if (this.failure) throw this.failure.error;
    const written: Record<string, number> = {};
    const ms: Record<string, number> = {};
    for (const [name, build] of this.incremental) {
      const started = performance.now();
      written[name] = await build.finish();
      ms[name] = Math.round(this.ms[name]! + performance.now() - started);
    }
    // Only now: the incremental models write their own datastream's rows, so two runs of one
    // project land and convert side by side and queue only for the project-level rebuild.
    await lockProject(this.tx, this.scope);
    for (const model of this.ordered) {
      if (this.incremental.has(model.name)) continue;
      const started = performance.now();
      written[model.name] = await model.build(this.tx, this.scope);
      ms[model.name] = Math.round(performance.now() - started);
    }
    return { written, ms };
  }
}
