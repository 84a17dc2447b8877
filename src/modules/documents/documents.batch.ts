import { batches, WRITE_BATCH } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';

/** How one kind writes a batch of documents as their next versions. */
export interface BatchWriter<I, P, Head> {
  /** An item's key (its name or topic_id); keys within one write are distinct. */
  keyOf(item: I): string;
  /** An item's size, for batches that stay under the byte budget. */
  weightOf(item: I): number;
  /** What a single write would derive from an item before storing it. */
  prepare(item: I): P;
  /** Creates or bumps the heads of a batch in one statement. */
  bumpHeads(batch: P[]): Promise<Head[]>;
  headKey(head: Head): string;
  idOf(head: Head): string;
  versionOf(head: Head): number;
  /** Inserts the batch's version rows in one statement. */
  insertVersions(batch: { item: P; head: Head }[]): Promise<void>;
}

/**
 * Many documents, each as the next version (or a new document), in the caller's transaction (an
 * import): two statements per batch instead of three per document, and the event loop turns
 * between batches (`pace`), so thousands of documents neither take minutes nor stall the process.
 * Answers each key's id and version.
 */
export async function writeDocumentsIn<I, P, Head>(
  items: I[],
  writer: BatchWriter<I, P, Head>,
  pace: Pacer,
): Promise<Map<string, { id: string; version: number }>> {
  const written = new Map<string, { id: string; version: number }>();
  for (const batch of batches(items, WRITE_BATCH, (i) => writer.weightOf(i))) {
    const prepared = batch.map((item) => ({ key: writer.keyOf(item), item: writer.prepare(item) }));
    await pace();
    const heads = await writer.bumpHeads(prepared.map((p) => p.item));
    await pace();
    const byKey = new Map(heads.map((h) => [writer.headKey(h), h]));
    const rows = prepared.map(({ key, item }) => {
      const head = byKey.get(key)!;
      written.set(key, { id: writer.idOf(head), version: writer.versionOf(head) });
      return { item, head };
    });
    await writer.insertVersions(rows);
    await pace();
  }
  return written;
}
