import { describe, expect, it } from 'vitest';
import { APP_PAYLOAD_META_KEY, buildEnvelope, summaryText } from '../../src/mcp/envelope.js';
import { truncateCodePoints } from '../../src/mcp/kit/envelope-limits.js';

describe('envelope', () => {
  it('withholds a data key whose compact JSON exceeds the budget, with its UTF-8 byte length', () => {
    const big = Array.from({ length: 50 }, (_, i) => ({ name: `Zürich café ${i}` }));
    const result = buildEnvelope(
      't',
      { kind: 'enveloped', summary: ['s'], projectId: 'proj_x', provenance: {}, data: { small: [1, 2], big } },
      256,
    );
    expect(result.structuredContent.data.small).toEqual([1, 2]);
    expect(result.structuredContent.data.big).toEqual({
      withheld: 'moved_to_app_channel',
      bytes: Buffer.byteLength(JSON.stringify(big), 'utf8'),
    });
    const app = result._meta[APP_PAYLOAD_META_KEY] as { data: { big: unknown } };
    expect(app.data.big).toEqual(big);
  });

  it('keeps the summary within 30 lines of at most 200 characters', () => {
    const lines = Array.from({ length: 45 }, (_, i) => `line ${i} ${'x'.repeat(300)}`);
    const text = summaryText(lines).split('\n');
    expect(text).toHaveLength(30);
    expect(Math.max(...text.map((l) => Array.from(l).length))).toBeLessThanOrEqual(200);
    expect(text[29]).toContain('16 more lines');
  });

  it('cuts by code points and never splits a surrogate pair', () => {
    const cut = truncateCodePoints('ab😀😀😀😀', 4);
    expect(Array.from(cut)).toHaveLength(4);
    expect(cut).toBe('ab😀…');
    expect(/[\uD800-\uDBFF]$/.test(cut.slice(0, -1))).toBe(false);
  });
});
