import { describe, expect, it } from 'vitest';
import { replaceBenchmarkSection } from '../../bench/support/benchmarks-file.js';

const doc = [
  '# Benchmarks',
  '',
  '## ingest',
  '',
  'old ingest table',
  '',
  '## startup',
  '',
  'old startup table',
  '',
  '### startup notes',
  '',
  'what an earlier session measured',
  '',
  '## startup, extra',
  '',
  'another section whose name starts the same',
  '',
].join('\n');

describe('BENCHMARKS.md sections', () => {
  it('replaces the figures of a section and keeps its notes and the sections around it', () => {
    const next = replaceBenchmarkSection(doc, 'startup', '## startup\n\nnew startup table\n');
    expect(next).toContain('new startup table');
    expect(next).not.toContain('old startup table');
    expect(next).toContain('### startup notes\n\nwhat an earlier session measured');
    expect(next.indexOf('new startup table')).toBeLessThan(next.indexOf('### startup notes'));
    expect(next).toContain('old ingest table');
    expect(next).toContain('## startup, extra\n\nanother section whose name starts the same');
  });

  it('replaces a section without notes whole, and only that section', () => {
    const next = replaceBenchmarkSection(doc, 'ingest', '## ingest\n\nnew ingest table');
    expect(next).toContain('## ingest\n\nnew ingest table\n\n## startup');
    expect(next).not.toContain('old ingest table');
    expect(next).toContain('old startup table');
  });

  it('appends a section the document does not have, and treats its name literally', () => {
    const next = replaceBenchmarkSection(doc, 'mcp, socket client (x)', '## mcp, socket client (x)\n\ntable');
    expect(next.startsWith(doc.trimEnd())).toBe(true);
    expect(next.endsWith('## mcp, socket client (x)\n\ntable\n')).toBe(true);
  });

  it('replaces the last section of the document', () => {
    const next = replaceBenchmarkSection(doc, 'startup, extra', '## startup, extra\n\nnew');
    expect(next.endsWith('## startup, extra\n\nnew\n')).toBe(true);
    expect(next).toContain('### startup notes');
  });
});
