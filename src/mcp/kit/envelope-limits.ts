/**
 * The limits a tool's summary lines are cut to, so a module can write lines that fit before the
 * envelope (mcp/envelope.ts) cuts them.
 */

export const MAX_SUMMARY_LINES = 30;

export const MAX_SUMMARY_LINE_CHARS = 200;

/** Cuts a string to at most `max` code points without splitting a surrogate pair. */
export function truncateCodePoints(text: string, max: number, ellipsis = '…'): string {
  // A string has at least as many UTF-16 units as code points: short ones need no splitting.
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, Math.max(0, max - Array.from(ellipsis).length)).join('') + ellipsis;
}
