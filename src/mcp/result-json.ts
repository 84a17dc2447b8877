import type { CallToolResult } from '@modelcontextprotocol/server';

/** The JSON text of a tool result's members, written while the result was built. */
export interface ResultJsonParts {
  /** `result.content` as JSON. */
  content: string;
  /** `result.structuredContent` as JSON. */
  structuredContent: string;
  /** The members of `result._meta` as JSON, without the braces. */
  metaMembers: string;
}

/**
 * buildEnvelope serializes every data key anyway (to measure it against ENVELOPE_INLINE_BYTES),
 * and the same payload then appears twice in the result (structuredContent and the app payload).
 * Keeping that text lets the fast path write an answer by concatenation instead of serializing
 * the payload twice more: with the object spreads the modern era needs, that serialization was
 * ~11 µs of a ~120 µs cheap call (bench:mcp, 2026-11-25).
 */
const written = new WeakMap<object, ResultJsonParts>();

/** Records the JSON text of a result built as `{content, structuredContent, _meta}` (in that order). */
export function rememberResultJson(result: object, parts: ResultJsonParts): void {
  written.set(result, parts);
}

/** True when the result still has exactly the members its recorded text describes. */
function describedBy(result: CallToolResult): boolean {
  let count = 0;
  for (const key in result) {
    if (key !== 'content' && key !== 'structuredContent' && key !== '_meta') return false;
    count += 1;
  }
  return count === 3;
}

/**
 * The JSON text of a result whose text rememberResultJson recorded, byte for byte what
 * `JSON.stringify(result)` writes; undefined for any other result (serialize it as usual). With
 * `extraMeta`, a JSON member such as `"key":{…}` is appended inside `_meta` (the recorded members
 * come from buildEnvelope, which writes only the app payload key there), and `tail`, members such
 * as `,"resultType":"complete"`, after the result's own members.
 */
export function prewrittenResultJson(result: CallToolResult, extraMeta?: string, tail = ''): string | undefined {
  const parts = written.get(result);
  if (parts === undefined || !describedBy(result)) return undefined;
  const meta = extraMeta === undefined ? parts.metaMembers : parts.metaMembers === '' ? extraMeta : `${parts.metaMembers},${extraMeta}`;
  return `{"content":${parts.content},"structuredContent":${parts.structuredContent},"_meta":{${meta}}${tail}}`;
}
