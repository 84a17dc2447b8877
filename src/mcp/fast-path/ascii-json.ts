/**
 * JSON text with every non-ASCII character written as a \uXXXX escape: the same JSON value, but
 * pure ASCII bytes. Decoders take their ASCII fast path on such a body; a handful of typographic
 * characters in tool descriptions made a client's UTF-8 decode of the tools/list answer several
 * times slower than the server's whole work for it (bench/mcp.bench.ts; BENCHMARKS.md, mcp notes).
 * Used for answers serialized once and served many times; per-call answers are not worth the
 * extra pass.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
