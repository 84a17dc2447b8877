import type { SqlExecutor } from '../../platform/db/database.js';
import type { CompiledReport } from './reports.sql.js';

/** Runs a report compiled from a governed definition (identifiers from the catalog, values bound). */
export async function runCompiled(db: SqlExecutor, compiled: CompiledReport): Promise<Record<string, unknown>[]> {
  return db.query<Record<string, unknown>>(compiled.sql, compiled.params);
}
