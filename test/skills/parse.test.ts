import { describe, expect, it } from 'vitest';
import { packStepLines } from '../../src/modules/skills/index.js';
import { parseAcceptance, parseReferences, parseSteps, stepTitle } from '../../src/modules/skills/index.js';
import { canonicalFrontmatter, parseSkillFile, renderSkillFile } from '../../src/modules/skills/index.js';
import { snippetOf } from '../../src/modules/search/index.js';

describe('skill body parsing', () => {
  it('takes the ordered list under a Steps heading, not an earlier one', () => {
    const body = '1. Not a step\n\n## Steps\n\n1) First: do it\n2) Second. More text\n\n## Notes\n1. Also not';
    expect(parseSteps(body).map((s) => s.title)).toEqual(['First', 'Second']);
  });

  it('falls back to the first top-level ordered list and ignores fenced code', () => {
    const body = '```\n1. inside code\n```\nIntro\n\n1. Alpha\n2. Beta';
    expect(parseSteps(body).map((s) => s.instruction)).toEqual(['Alpha', 'Beta']);
  });

  it('titles: bold lead, else up to the first colon or sentence end, at most 80 code points', () => {
    expect(stepTitle('**Check spend** then the rest')).toBe('Check spend');
    expect(stepTitle('Compare 1.5x uplift: against last week')).toBe('Compare 1.5x uplift');
    const long = stepTitle(`${'😀'.repeat(100)}`);
    expect(Array.from(long)).toHaveLength(80);
  });

  it('acceptance items strip checkboxes; references are unique and in reading order', () => {
    expect(parseAcceptance('## Acceptance criteria\n- [x] Done\n* [ ] Open\n\n## Next\n- no')).toEqual([
      'Done',
      'Open',
    ]);
    expect(parseReferences('[[kpi.roas]] and [[surface.checkout]] and [[kpi.roas]] but not [[Bad Key]]')).toEqual([
      'kpi.roas',
      'surface.checkout',
    ]);
  });
});

describe('SKILL.md', () => {
  it('canonical front matter parses back to the same fields and renders the same bytes', () => {
    const front = canonicalFrontmatter({
      name: 'a-b',
      description: 'Line: with "quotes" and # hash',
      metadata: { k: 'one: "two" # three' },
      extra: { license: 'MIT' },
    });
    const file = `${front}Body\n`;
    const parsed = parseSkillFile(file);
    expect(parsed).toMatchObject({
      name: 'a-b',
      description: 'Line: with "quotes" and # hash',
      metadata: { k: 'one: "two" # three' },
      extra: { license: 'MIT' },
      body: 'Body\n',
    });
    expect(
      renderSkillFile({
        name: 'a-b',
        description: parsed.description,
        metadata: parsed.metadata,
        frontmatter_extra: parsed.extra,
        frontmatter_raw: null,
        body_md: parsed.body,
      }),
    ).toBe(file);
  });
});

describe('step packing for the text channel', () => {
  it('one per line while they fit, packed when not, with a remainder when even that overflows', () => {
    expect(packStepLines(['A', 'B'], 5)).toEqual(['1. A', '2. B']);
    const packed = packStepLines(
      Array.from({ length: 60 }, (_, i) => `Step ${i}`),
      10,
    );
    expect(packed.length).toBeLessThanOrEqual(10);
    expect(packed.join(' · ').split(' · ')).toHaveLength(60);
    const overflow = packStepLines(
      Array.from({ length: 500 }, () => 'x'.repeat(70)),
      5,
    );
    expect(overflow).toHaveLength(5);
    for (const line of overflow) expect(Array.from(line).length).toBeLessThanOrEqual(200);
    const note = /(\d+) more steps in the app payload$/.exec(overflow[4]!);
    expect(Number(note![1]) + overflow.join(' · ').split(' · ').length - 1).toBe(500);
  });
});

describe('search query handling', () => {
  it('snippets are at most 160 code points and never split a surrogate pair', () => {
    const text = `${'😀'.repeat(300)} needle ${'😀'.repeat(300)}`;
    const snippet = snippetOf(text, ['needle']);
    expect(Array.from(snippet).length).toBeLessThanOrEqual(160);
    expect(snippet).toContain('needle');
    expect(snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('snippets sit around the passage holding most of the stems, not the first one', () => {
    const text = `roas is mentioned here first. ${'filler words about nothing in particular. '.repeat(10)}Later the roas drop on paid social is explained.`;
    const snippet = snippetOf(text, ['roa', 'drop', 'paid', 'social']);
    expect(snippet).toContain('roas drop on paid social');
    expect(Array.from(snippet).length).toBeLessThanOrEqual(160);
  });
});
