/**
 * Every page of a cursor-paged list (`limit`, `cursor`, `next_cursor`), up to a cap,
 * as one answer of the same shape: the items under `key` are all pages' items. The lists the
 * console shows whole (and filters in the browser) are read so, so nothing past a first page is
 * silently missing; past the cap, `truncated` says it stopped.
 */
export async function wholeList<K extends string, A extends { [P in K]: unknown[] } & { next_cursor: string | null }>(
  key: K,
  page: (cursor: string | undefined) => Promise<A>,
  cap = 2_000,
): Promise<A & { truncated: boolean }> {
  const first = await page(undefined);
  const items = [...first[key]];
  let cursor = first.next_cursor ?? undefined;
  while (cursor && items.length < cap) {
    const next = await page(cursor);
    items.push(...next[key]);
    cursor = next.next_cursor ?? undefined;
  }
  return { ...first, [key]: items, next_cursor: cursor ?? null, truncated: cursor !== undefined };
}

/** The distinct values, sorted, for a filter's choices. */
export function choicesOf(values: Iterable<string | null | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => !!v))].sort((a, b) => a.localeCompare(b));
}
