import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { Pacer } from '../../platform/pacer.js';
import { authorColumns, type VersionAuthor, writeDocumentsIn } from '../documents/index.js';
import * as repo from './knowledge.repo.js';
import type { SheetFields } from './knowledge.schemas.js';

/** Many sheets, each as the next version (or a new sheet), in the caller's transaction (an import). */
export async function writeSheetsIn(
  tx: SqlExecutor,
  now: Date,
  projectId: string,
  sheets: SheetFields[],
  author: VersionAuthor,
  pace: Pacer,
): Promise<Map<string, { id: string; version: number }>> {
  return writeDocumentsIn(
    sheets,
    {
      keyOf: (s) => s.topic_id,
      weightOf: (s) => s.body_md.length + s.title.length,
      prepare: (s) => s,
      bumpHeads: (batch) =>
        repo.bumpHeads(
          tx,
          projectId,
          now,
          batch.map((s) => ({ id: `kn_${randomBytes(8).toString('hex')}`, ...s })),
        ),
      headKey: (h) => h.topic_id,
      idOf: (h) => h.id,
      versionOf: (h) => h.version_number,
      insertVersions: (rows) =>
        repo.insertVersions(
          tx,
          rows.map(({ item, head }) => ({
            knowledge_id: head.id,
            version_number: head.version_number,
            ...item,
            ...authorColumns(author, now),
          })),
        ),
    },
    pace,
  );
}
