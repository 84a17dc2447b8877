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

/** What an import writes per statement: a few hundred rows, a few MiB of text. */
export const WRITE_BATCH = { rows: 500, bytes: 4 * 1024 * 1024 } as const;
