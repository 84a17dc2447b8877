import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The code stands on its own: a comment or a test title keeps its reason in its own words, never
 * as a pointer to a tracker entry or a design file that a reader of this repository cannot open.
 * The test names every offending line as `file:line: text`, so the fix is a rewrite, not a hunt.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['src', 'test', 'web', 'bench', 'scripts', '.ci'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);
/** This file spells the patterns out to describe them. */
const SELF = path.relative(ROOT, import.meta.filename);

/** Standards are public and can be opened: `RFC 6749 §4.4 and §6` is a citation, not private history. */
const RFC_SECTIONS = /RFC \d{3,5}(\s*§\s?[\d.]+('s)?(\s*(and|\/|,)\s*§\s?[\d.]+)*)?/g;

const CITATIONS: Array<[string, RegExp]> = [
  ['a tracker issue', /\bissues? #?\d+/i],
  // Four-digit refs at most, never before `;` or a quote: CSS colours (#333; '#404040') stay out.
  ['a tracker number', /(^|[\s(,[])#\d{1,4}\b(?![;'"])/],
  ['an item or finding of a tracker issue', /\b(items?|findings?) \d+[a-z]?\b/i],
  ['a tracker issue', /\bthe issue\b/i],
  ['a design file', /\bDESIGN\b/],
  ['a design file', /\/work\/shared|\.\.\/shared\/[A-Z]/],
  ['a section of a design file', /§\s?\d/],
];

function textFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : textFiles(full);
    return entry.isFile() ? [full] : [];
  });
}

/** What a line cites that a reader cannot open, or undefined when it stands on its own. */
function citationIn(line: string): string | undefined {
  const text = line.replace(RFC_SECTIONS, 'RFC');
  return CITATIONS.find(([, pattern]) => pattern.test(text))?.[0];
}

/** Every offending line under the scanned folders, as `file:line: what it cites: text`. */
function offenders(): { files: number; found: string[] } {
  const files = SCANNED.flatMap((dir) => textFiles(path.join(ROOT, dir)));
  const found: string[] = [];
  for (const file of files) {
    const relative = path.relative(ROOT, file);
    if (relative === SELF) continue;
    const content = readFileSync(file, 'utf8');
    if (content.includes('\u0000')) continue;
    content.split('\n').forEach((line, index) => {
      const cited = citationIn(line);
      if (cited) found.push(`${relative}:${index + 1}: ${cited}: ${line.trim().slice(0, 120)}`);
    });
  }
  return { files: files.length, found };
}

describe('the code stands on its own', () => {
  it('recognises each kind of citation and lets public standards and plain code through', () => {
    expect(citationIn('// Kept hand-written (issue 32) because it measured faster')).toBe('a tracker issue');
    expect(citationIn('// Issue 24: the review screen')).toBe('a tracker issue');
    expect(citationIn('// fixed in #123')).toBe('a tracker number');
    expect(citationIn('// (finding 3: 246 MiB)')).toBe('an item or finding of a tracker issue');
    expect(citationIn("it('step-up (item 10): retries', ...)")).toBe('an item or finding of a tracker issue');
    expect(citationIn('/** as the issue asks */')).toBe('a tracker issue');
    expect(citationIn('/** Every variable of DESIGN §4 */')).toBe('a design file');
    expect(citationIn('// see ../shared/DESIGN.md')).toBe('a design file');
    expect(citationIn('// as section §6 allows')).toBe('a section of a design file');

    expect(citationIn('/** A rotated refresh token (RFC 6749 §6): the old one is dead. */')).toBeUndefined();
    expect(citationIn(' * One token request (RFC 6749 §4.4 / §6) under the outbound policy.')).toBeUndefined();
    expect(citationIn("/** Basic header (RFC 6749 §2.3.1's preferred way) */")).toBeUndefined();
    expect(citationIn("import { fmtDay } from '../../shared/format.js';")).toBeUndefined();
    expect(citationIn("const ENTITIES = { quot: '\"', '#39': \"'\" };")).toBeUndefined();
    expect(citationIn('ctx.addIssue({ code: "custom" });')).toBeUndefined();
    expect(citationIn('color: #333;')).toBeUndefined();
    expect(citationIn('  --color-background-success: #143222;')).toBeUndefined();
  });

  it('cites no tracker issue and no design file outside the repository', () => {
    const { files, found } = offenders();
    expect(files).toBeGreaterThan(500);
    expect(found, `${found.length} line(s) cite what a reader cannot open:\n${found.join('\n')}\n`).toEqual([]);
  });
});
