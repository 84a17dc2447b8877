/**
 * Every page of a cursor-paged list (DESIGN §7: `limit`, `cursor`, `next_cursor`), up to a cap. The
 * lists a person filters in the browser (Skills, Knowledge) are read whole so a filter never
 * silently misses what sits past the first page; past the cap the answer says it stopped.
 */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null }>,
  cap = 2_000,
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.next_cursor ?? undefined;
  } while (cursor && items.length < cap);
  return { items, truncated: cursor !== undefined };
}

/** The distinct values, sorted, for a filter's choices. */
export function choicesOf(values: Iterable<string | null | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => !!v))].sort((a, b) => a.localeCompare(b));
}
