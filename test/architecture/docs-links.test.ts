import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * The README stays short by pointing into docs/, so a moved section must leave no dead link
 * behind: every relative link and image of the project's Markdown names a file that exists and,
 * with a `#fragment`, a heading of that file. Links are found by marked's lexer (the parser the
 * console already uses), not by a regex, so code spans and fenced examples are never read as links.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = path.join(ROOT, 'docs');
const PAGES = [
  'README.md',
  'DEVELOPING.md',
  'BENCHMARKS.md',
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(tokens: Token[]): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const token of tokens) {
    if (token.type !== 'heading') continue;
    const text = (token as Tokens.Heading).text.replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every link and image target in a page, HTML `<img src>` included. */
function targetsOf(tokens: Token[]): string[] {
  const found: string[] = [];
  marked.walkTokens(tokens, (token) => {
    if (token.type === 'link' || token.type === 'image') found.push((token as Tokens.Link).href);
    if (token.type === 'html')
      for (const match of (token as Tokens.HTML).text.matchAll(/\bsrc="([^"]+)"/g)) found.push(match[1]!);
  });
  return found;
}

const lexed = new Map<string, Token[]>();
function tokensOf(page: string): Token[] {
  let tokens = lexed.get(page);
  if (!tokens) {
    tokens = marked.lexer(readFileSync(path.join(ROOT, page), 'utf8'));
    lexed.set(page, tokens);
  }
  return tokens;
}

/** The dead links of one page, as `page -> target (why)`. */
function deadLinks(page: string, tokens = tokensOf(page)): string[] {
  const dead: string[] = [];
  for (const target of targetsOf(tokens)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: … are not this repository's
    const [file = '', fragment] = target.split('#');
    const linked = file ? path.normalize(path.join(path.dirname(page), decodeURI(file))) : page;
    if (!existsSync(path.join(ROOT, linked))) {
      dead.push(`${page} -> ${target} (no file ${linked})`);
      continue;
    }
    if (fragment && linked.endsWith('.md') && !anchorsOf(tokensOf(linked)).has(fragment))
      dead.push(`${page} -> ${target} (no heading #${fragment} in ${linked})`);
  }
  return dead;
}

describe('documentation links', () => {
  it('computes the anchors GitHub gives headings', () => {
    const anchors = anchorsOf(
      marked.lexer(
        '# What `npm ci` and the first start do\n## Context hub: Skills, Knowledge, taxonomy, search\n' +
          '### Embedded store (PGlite, no `DATABASE_URL`)\n## Triage\n## Triage\n',
      ),
    );
    expect([...anchors]).toEqual([
      'what-npm-ci-and-the-first-start-do',
      'context-hub-skills-knowledge-taxonomy-search',
      'embedded-store-pglite-no-database_url',
      'triage',
      'triage-1',
    ]);
  });

  it('finds links in the pages, and a dead one when there is one', () => {
    expect(PAGES.length).toBeGreaterThan(10);
    expect(targetsOf(tokensOf('README.md')).filter((t) => t.startsWith('docs/')).length).toBeGreaterThan(20);
    expect(targetsOf(marked.lexer('see `[x](nowhere.md)` and [y](docs/nowhere.md#a)\n'))).toEqual([
      'docs/nowhere.md#a',
    ]);
    const page = marked.lexer('[a](docs/nowhere.md) [b](docs/mcp.md#no-such-heading) [c](docs/mcp.md#sessions)\n');
    expect(deadLinks('README.md', page)).toEqual([
      'README.md -> docs/nowhere.md (no file docs/nowhere.md)',
      'README.md -> docs/mcp.md#no-such-heading (no heading #no-such-heading in docs/mcp.md)',
    ]);
  });

  it('every relative link names an existing file and heading', () => {
    expect(PAGES.flatMap((page) => deadLinks(page))).toEqual([]);
  });
});
