import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * DEVELOPING.md's module map is the list of what each module may import. A module importing one its
 * row does not name, or a module without a row, fails here with the module and the import named, so
 * a new dependency is a decision written down in the same change.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const MODULES = path.join(ROOT, 'src', 'modules');

function mapRows(markdown: string): Map<string, Set<string>> {
  const section = markdown.split(/^## Module map$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[1] === 'module' || /^-+$/.test(cells[1]!)) continue;
    const allowed = cells[3] === '—' ? [] : cells[3]!.split(',').map((c) => c.trim());
    rows.set(cells[1]!, new Set(allowed));
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `<module> imports <other> (<file>)` for every import of a module its row does not allow. */
function unlisted(rows: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(MODULES)) {
    const parts = path.relative(MODULES, file).split(path.sep);
    if (parts.length < 2) continue;
    const from = parts[0]!;
    const allowed = rows.get(from);
    for (const ref of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = path.relative(MODULES, path.resolve(path.dirname(file), ref.fileName)).split(path.sep);
      if (target.length < 2 || target[0] === '..' || target[0] === from) continue;
      if (!allowed?.has(target[0]!)) found.push(`${from} imports ${target[0]} (${path.relative(ROOT, file)})`);
    }
  }
  return [...new Set(found)];
}

describe('module map', () => {
  const rows = mapRows(readFileSync(path.join(ROOT, 'DEVELOPING.md'), 'utf8'));
  const folders = readdirSync(MODULES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  it('has a row for every module and no row for a module that is gone', () => {
    expect([...rows.keys()].sort()).toEqual([...folders].sort());
  });

  it('lists every module each module imports', () => {
    expect(unlisted(rows)).toEqual([]);
  });

  it('names an import its row does not allow', () => {
    const narrowed = new Map(rows);
    narrowed.set('skills', new Set());
    expect(unlisted(narrowed).some((line) => line.startsWith('skills imports projects'))).toBe(true);
  });
});
