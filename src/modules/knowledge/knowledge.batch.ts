import { randomBytes } from 'node:crypto';
import { batches, WRITE_BATCH } from '../../platform/batches.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { Pacer } from '../../platform/pacer.js';
import { authorColumns, type VersionAuthor } from '../context-hub/context-hub.authorship.js';
import * as repo from './knowledge.repo.js';
import type { SheetFields } from './knowledge.service.js';

/**
 * Many sheets, each as the next version (or a new sheet), in the caller's transaction (an import):
 * two statements per batch instead of three per sheet, and the event loop turns between batches
 * (`pace`), so thousands of sheets neither take minutes nor stall the process.
 */
export async function writeSheetsIn(
  tx: SqlExecutor,
  now: Date,
  projectId: string,
  sheets: SheetFields[],
  author: VersionAuthor,
  pace: Pacer,
): Promise<Map<string, { id: string; version: number }>> {
  const written = new Map<string, { id: string; version: number }>();
  for (const batch of batches(sheets, WRITE_BATCH, (s) => s.body_md.length + s.title.length)) {
    const heads = await repo.bumpHeads(
      tx,
      projectId,
      now,
      batch.map((s) => ({
        id: `kn_${randomBytes(8).toString('hex')}`,
        topic_id: s.topic_id,
        title: s.title,
        body_md: s.body_md,
        owner: s.owner,
      })),
    );
    await pace();
    const byTopic = new Map(heads.map((h) => [h.topic_id, h]));
    await repo.insertVersions(
      tx,
      batch.map((s): repo.KnowledgeVersionRow => {
        const head = byTopic.get(s.topic_id)!;
        written.set(s.topic_id, { id: head.id, version: head.version_number });
        return {
          knowledge_id: head.id,
          version_number: head.version_number,
          topic_id: s.topic_id,
          title: s.title,
          body_md: s.body_md,
          owner: s.owner,
          ...authorColumns(author, now),
        };
      }),
    );
    await pace();
  }
  return written;
}
