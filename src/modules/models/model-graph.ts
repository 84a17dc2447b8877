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

/**
 * A SQL model (like a dbt model): it rebuilds its rows for the scope's dates inside the caller's
 * transaction (delete-and-insert per date), after the models it depends on. Returns rows written.
 */
export interface ModelSpec {
  name: string;
  dependsOn: readonly string[];
  build(tx: SqlExecutor, scope: ModelScope): Promise<number>;
}

/** The registration list: ingestion's models first; the evaluators add `anomalies_daily`. */
export class ModelGraph {
  private readonly models = new Map<string, ModelSpec>();

  register(model: ModelSpec): void {
    if (this.models.has(model.name)) throw new Error(`model ${model.name} registered twice`);
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
  async buildAll(tx: SqlExecutor, scope: ModelScope): Promise<{ written: Record<string, number>; ms: Record<string, number> }> {
    // Window-sized sorts and hashes stay in memory instead of spilling to disk (this transaction only).
    await tx.query("SET LOCAL work_mem = '64MB'");
    // Project-level datasets (kpis_daily, anomalies_daily) are rebuilt per date for the whole
    // project: two datastreams of one project must not rebuild the same dates at once.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('context-hub:models:' || $1))", [scope.projectId]);
    const written: Record<string, number> = {};
    const ms: Record<string, number> = {};
    for (const model of this.ordered()) {
      const started = performance.now();
      written[model.name] = await model.build(tx, scope);
      ms[model.name] = Math.round(performance.now() - started);
    }
    return { written, ms };
  }
}
