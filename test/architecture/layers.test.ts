import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Layers point down (DEVELOPING.md, Layout): platform/ knows nothing of the product, modules/ and
 * mcp/ know nothing of how the process is assembled (app/). A rule broken here is a cycle waiting
 * to happen, so the test names every offending file and import.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');

/** The top-level folder of src/ a file belongs to ('' for a file directly under src/). */
function layerOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : '';
}

const FORBIDDEN: Record<string, string[]> = {
  platform: ['modules', 'mcp', 'app', 'cli', 'testing'],
  modules: ['app', 'cli', 'testing'],
  mcp: ['app', 'cli', 'testing'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative module specifier a file imports or re-exports, dynamic imports and `import type` included. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((ref) => ref.fileName).filter((name) => name.startsWith('.'));
}

/** The imports that break a layer rule, as `file -> specifier (layer)`. */
function layerViolations(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const forbidden = FORBIDDEN[layerOf(file)];
    if (!forbidden) continue;
    for (const specifier of importsOf(file)) {
      const target = layerOf(path.resolve(path.dirname(file), specifier));
      if (forbidden.includes(target))
        found.push(`${path.relative(SRC, file)} imports ${specifier} (${layerOf(file)}/ -> ${target}/)`);
    }
  }
  return found;
}

describe('source layout', () => {
  const files = sourceFiles(SRC);

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    // The parser sees type-only imports, re-exports and dynamic imports alike.
    const parsed = ts.preProcessFile(
      "import type { A } from './a.js';\nexport { B } from './b.js';\nconst c = await import('./c.js');",
      true,
      true,
    );
    expect(parsed.importedFiles.map((ref) => ref.fileName)).toEqual(['./a.js', './b.js', './c.js']);
  });

  it('has layers that only point down', () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it('reports an import that points up', () => {
    const file = path.join(SRC, 'platform', 'http', 'app.ts');
    expect(
      FORBIDDEN[layerOf(file)]!.includes(layerOf(path.resolve(path.dirname(file), '../../app/service-app.js'))),
    ).toBe(true);
  });

  it('keeps test files out of src/ (they would be compiled into dist/)', () => {
    expect(files.filter((file) => file.endsWith('.test.ts')).map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
