import type { CallToolResult } from '@modelcontextprotocol/server';

/** The JSON text of a tool result's members, written while the result was built. */
export interface ResultJsonParts {
  /** The three members the text was written from: a result whose members are others gets none of it. */
  of: { content: unknown; structuredContent: unknown; _meta: unknown };
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
 * the payload twice more: with the object spreads the modern era needs, that serialization was a
 * large share of a cheap call (BENCHMARKS.md, mcp notes).
 *
 * The text rides on the result under a symbol, which JSON, Object.keys and for-in never see. A
 * WeakMap side table costs more per call (its entries are ephemerons, which young-generation
 * GCs have to trace).
 */
export const RESULT_JSON: unique symbol = Symbol('context-hub.result-json');

/** True when the result has exactly the members its text was written from (a copy with one replaced has not). */
function describedBy(result: CallToolResult, parts: ResultJsonParts): boolean {
  if (
    result.content !== parts.of.content ||
    result.structuredContent !== parts.of.structuredContent ||
    result._meta !== parts.of._meta
  )
    return false;
  let count = 0;
  for (const key in result) {
    if (key !== 'content' && key !== 'structuredContent' && key !== '_meta') return false;
    count += 1;
  }
  return count === 3;
}

/**
 * The JSON text of a result whose text was recorded under RESULT_JSON, byte for byte what
 * `JSON.stringify(result)` writes; undefined for any other result (serialize it as usual). With
 * `extraMeta`, a JSON member such as `"key":{…}` is appended inside `_meta` (the recorded members
 * come from buildEnvelope, which writes only the app payload key there), and `tail`, members such
 * as `,"resultType":"complete"`, after the result's own members.
 */
export function prewrittenResultJson(result: CallToolResult, extraMeta?: string, tail = ''): string | undefined {
  const parts = (result as { [RESULT_JSON]?: ResultJsonParts })[RESULT_JSON];
  if (parts === undefined || !describedBy(result, parts)) return undefined;
  // metaMembers is never empty: buildEnvelope always writes the app payload there.
  const meta = extraMeta === undefined ? parts.metaMembers : `${parts.metaMembers},${extraMeta}`;
  return `{"content":${parts.content},"structuredContent":${parts.structuredContent},"_meta":{${meta}}${tail}}`;
}
