import type { Database } from '../../platform/db/database.js';
import { rebuildSearchIndex, searchStatsDrift } from './search.repo.js';

/**
 * `context-hub search-reindex [--check] [--project ID]`: rebuilds the search index of one project
 * or of every project from its live rows (each in a transaction of its own, which takes the
 * project's content version lock as a commit does, so writers wait for it and caches retire), or
 * with --check only reports whether the stored statistics differ from the live rows.
 */
export async function reindexSearch(
  db: Database,
  options: { projectId?: string; check: boolean },
  write: (line: string) => void,
): Promise<number> {
  const projects = options.projectId
    ? [options.projectId]
    : (await db.query<{ id: string }>('SELECT id FROM projects ORDER BY id')).map((r) => r.id);
  let drifted = 0;
  for (const id of projects) {
    if (options.check) {
      const d = await searchStatsDrift(db, id);
      const ok = d.terms_wrong === 0 && d.kinds_wrong === 0 && d.postings_expected === d.postings_stored;
      if (!ok) drifted += 1;
      write(
        `${id}: ${ok ? 'true' : 'DRIFTED'} (${d.terms} stems; ${d.terms_wrong} document frequencies and ${d.kinds_wrong} kinds differ; postings ${d.postings_stored} of ${d.postings_expected})`,
      );
      continue;
    }
    const r = await db.transaction((tx) => rebuildSearchIndex(tx, id));
    write(`${id}: ${r.documents} documents, ${r.postings} postings, ${r.terms} stems`);
  }
  return drifted > 0 ? 1 : 0;
}
