import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { buildEnvelope } from '../../src/mcp/envelope.js';
import { prewrittenResultJson } from '../../src/mcp/fast-path/result-json.js';
import type { EnvelopedAnswer } from '../../src/mcp/kit/tool.js';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const SERVER_INFO = { name: 'context-hub', version: '0.1.0', title: 'Context Hub' };

function answer(data: Record<string, unknown>, extra: Partial<EnvelopedAnswer> = {}): EnvelopedAnswer {
  return {
    kind: 'enveloped',
    summary: ['2 things', '- "quoted" \\ back\nslash', 'Zürich 😀'],
    projectId: 'proj_x',
    provenance: { source: 'test', at: '2026-11-25' },
    data,
    ...extra,
  };
}

const cases: [string, EnvelopedAnswer, number][] = [
  ['small data', answer({ projects: [{ id: 'proj_a', name: 'A' }], next_cursor: null }), 4096],
  [
    'a withheld key next to an inline one',
    answer({ small: [1, 2], big: Array.from({ length: 40 }, (_, i) => ({ name: `Zürich café ${i}` })) }),
    256,
  ],
  [
    'a big key that is never withheld',
    answer(
      { hits: Array.from({ length: 40 }, (_, i) => ({ title: `hit ${i}` })), total: 40 },
      { neverWithhold: ['hits'] },
    ),
    64,
  ],
  [
    'undefined and function values (left out, as JSON.stringify does)',
    answer({ gone: undefined, fn: () => 1, kept: 'x', nested: { inner: undefined, list: [undefined, 1] } }),
    4096,
  ],
  ['no data at all', answer({}), 4096],
  [
    'keys that need escaping, a null project and dates',
    answer({ 'we"ird\\key': 1, ключ: [new Date('2026-11-25T00:00:00Z')] }, { projectId: null }),
    4096,
  ],
];

describe('prewritten tool result JSON', () => {
  it.each(cases)('writes what JSON.stringify writes: %s', (_name, built, inlineBytes) => {
    const result = buildEnvelope('t', built, inlineBytes) as CallToolResult;
    expect(prewrittenResultJson(result)).toBe(JSON.stringify(result));
  });

  it.each(cases)('writes the modern answer the object spread gives: %s', (_name, built, inlineBytes) => {
    const result = buildEnvelope('t', built, inlineBytes) as CallToolResult;
    const member = `${JSON.stringify(SERVER_INFO_KEY)}:${JSON.stringify(SERVER_INFO)}`;
    const expected = JSON.stringify({
      ...result,
      resultType: 'complete',
      _meta: { ...result._meta, [SERVER_INFO_KEY]: SERVER_INFO },
    });
    expect(prewrittenResultJson(result, member, ',"resultType":"complete"')).toBe(expected);
  });

  it('has nothing for results it did not see built, or copies with a member replaced or added', () => {
    expect(prewrittenResultJson({ content: [{ type: 'text', text: 'x' }] })).toBeUndefined();
    const result = buildEnvelope('t', answer({ a: 1 }), 4096) as CallToolResult;
    expect(prewrittenResultJson({ ...result })).toBe(JSON.stringify(result));
    expect(prewrittenResultJson({ ...result, structuredContent: { meta: {}, data: { a: 2 } } })).toBeUndefined();
    expect(prewrittenResultJson({ ...result, content: [] })).toBeUndefined();
    expect(prewrittenResultJson({ ...result, _meta: {} })).toBeUndefined();
    expect(prewrittenResultJson({ ...result, isError: false })).toBeUndefined();
  });

  it('is invisible to JSON, Object.keys and copies made for the wire', () => {
    const result = buildEnvelope('t', answer({ a: 1 }), 4096);
    expect(Object.keys(result)).toEqual(['content', 'structuredContent', '_meta']);
    expect(JSON.parse(JSON.stringify(result))).toEqual({
      content: result.content,
      structuredContent: result.structuredContent,
      _meta: result._meta,
    });
  });
});
