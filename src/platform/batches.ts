/**
 * Items in consecutive batches of at most `rows` items and, past the first item of a batch, at most
 * `bytes` (as `size` counts them): one statement each, so many rows cost a few round trips, and no
 * statement carries an unbounded parameter.
 */
export function* batches<T>(items: readonly T[], limits: { rows: number; bytes: number }, size: (item: T) => number) {
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const weight = size(item);
    if (batch.length > 0 && (batch.length >= limits.rows || bytes + weight > limits.bytes)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += weight;
  }
  if (batch.length > 0) yield batch;
}

/**
 * What an import writes per statement. On the embedded store a statement runs on this thread
 * (search documents and triggers included): 100 short rows take tens of milliseconds there.
 */
export const WRITE_BATCH = { rows: 100, bytes: 1024 * 1024 } as const;

/** Rows per page when a whole list is read page by page (READ_PAGE rows take a few ms to read). */
export const READ_PAGE = 500;

/**
 * A whole keyset-paged list, page by page, with a turn of the event loop between pages (`pace`):
 * one query for thousands of rows would hold the embedded store's thread for its whole length.
 */
export async function readInPages<T>(
  page: (after: string | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => string,
  pace: () => Promise<void>,
): Promise<T[]> {
  const rows: T[] = [];
  let after: string | undefined;
  for (;;) {
    const next = await page(after, READ_PAGE);
    rows.push(...next);
    if (next.length < READ_PAGE) return rows;
    after = keyOf(next[next.length - 1]!);
    await pace();
  }
}
