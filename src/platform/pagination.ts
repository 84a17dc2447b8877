import { z } from 'zod';
import { ValidationError } from './errors.js';

/** Opaque keyset cursors: base64url of the last row's sort key. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size (1–500, default 50).'),
  cursor: z.string().max(500).optional().describe('The next_cursor of the previous page.'),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T>(cursor: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (cursor === undefined) return undefined;
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new ValidationError([{ path: 'cursor', message: 'Not a cursor this API issued; start again without it.' }]);
  }
}

/** Rows fetched with limit+1 → the page and its next cursor. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => unknown,
): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const next_cursor = rows.length > limit ? encodeCursor(keyOf(items[items.length - 1]!)) : null;
  return { items, next_cursor };
}
