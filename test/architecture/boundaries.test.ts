import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Module boundaries (DEVELOPING.md, Layout): a module's index.ts is all the rest of the code may
 * import from it, modules use MCP only through its contract (src/mcp/kit/), and no file imports
 * itself back through others, type-only imports included: a type in a cycle sits in the wrong
 * file. Each rule names every offending import or cycle, and each is shown catching a violation.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const MODULES = path.join(SRC, 'modules');
const KIT = path.join(SRC, 'mcp', 'kit');

interface Edge {
  from: string;
  specifier: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, as NodeNext resolves `./x.js` to `./x.ts`. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier).replace(/\.(js|ts)$/, '');
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((file) => existsSync(file)) ?? null;
}

/** Every relative import of the files: static, `import type`, re-exports and dynamic imports. */
function edgesOf(files: string[]): Edge[] {
  return files.flatMap((from) =>
    ts
      .preProcessFile(readFileSync(from, 'utf8'), true, true)
      .importedFiles.map((ref) => ref.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .flatMap((specifier) => {
        const to = resolveSpecifier(from, specifier);
        return to ? [{ from, specifier, to }] : [];
      }),
  );
}

/** The module folder a file belongs to, or null for a file outside src/modules/<x>/. */
function moduleOf(file: string): string | null {
  const parts = path.relative(MODULES, file).split(path.sep);
  return parts[0] === '..' || parts.length < 2 ? null : parts[0]!;
}

const shown = (file: string) => path.relative(ROOT, file);
const describeEdge = (edge: Edge) => `${shown(edge.from)} imports ${edge.specifier} (${shown(edge.to)})`;

function modulesWithoutIndex(moduleDirs: string[]): string[] {
  return moduleDirs.filter((dir) => !existsSync(path.join(dir, 'index.ts'))).map(shown);
}

/** Imports into a module from outside it that name a file other than the module's own index.ts. */
function importsPastIndex(edges: Edge[]): string[] {
  return edges
    .filter((edge) => {
      const target = moduleOf(edge.to);
      return target && target !== moduleOf(edge.from) && edge.to !== path.join(MODULES, target, 'index.ts');
    })
    .map(describeEdge);
}

/** Imports from a module into src/mcp/ outside its contract (src/mcp/kit/). */
function mcpPastKit(edges: Edge[]): string[] {
  const inMcp = (file: string) => !path.relative(path.join(SRC, 'mcp'), file).startsWith('..');
  const inKit = (file: string) => !path.relative(KIT, file).startsWith('..');
  return edges
    .filter((edge) => !path.relative(MODULES, edge.from).startsWith('..') && inMcp(edge.to) && !inKit(edge.to))
    .map(describeEdge);
}

/** One cycle per strongly connected group of files, written `a -> b -> a`. */
function importCycles(edges: Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (next.get(file) ?? []).includes(file)) groups.push(group);
  };
  for (const file of next.keys()) if (!index.has(file)) connect(file);
  // A shortest way from the group's first file back to itself, inside the group.
  return groups.map((group) => {
    const members = new Set(group);
    const start = group.sort()[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const file = queue.shift()!;
      for (const to of next.get(file) ?? []) {
        if (!members.has(to) || cameFrom.has(to)) continue;
        cameFrom.set(to, file);
        queue.push(to);
      }
      if (cameFrom.has(start)) break;
    }
    const way = [start];
    for (let file = cameFrom.get(start)!; file !== start; file = cameFrom.get(file)!) way.unshift(file);
    way.unshift(start);
    const rest = group.length > way.length - 1 ? ` (group of ${group.length} files)` : '';
    return `${way.map(shown).join(' -> ')}${rest}`;
  });
}

describe('module boundaries', () => {
  const moduleDirs = readdirSync(MODULES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(MODULES, entry.name));
  const srcEdges = edgesOf(sourceFiles(SRC));
  const allEdges = [...srcEdges, ...edgesOf(['test', 'bench'].flatMap((dir) => sourceFiles(path.join(ROOT, dir))))];

  it('finds the modules and their imports', () => {
    expect(moduleDirs.length).toBeGreaterThan(20);
    expect(srcEdges.length).toBeGreaterThan(500);
  });

  it('gives every module an index.ts', () => {
    expect(modulesWithoutIndex(moduleDirs)).toEqual([]);
  });

  it('reports a module without an index.ts', () => {
    expect(modulesWithoutIndex([path.join(MODULES, 'no-such-module')])).toEqual(['src/modules/no-such-module']);
  });

  it('imports every module from outside it through its index.ts only', () => {
    expect(importsPastIndex(allEdges)).toEqual([]);
  });

  it('reports an import that reaches inside another module', () => {
    const from = path.join(MODULES, 'alerts', 'alerts.service.ts');
    const past = {
      from,
      specifier: '../projects/projects.service.js',
      to: path.join(MODULES, 'projects', 'projects.service.ts'),
    };
    const nested = {
      from,
      specifier: '../projects/sub/index.js',
      to: path.join(MODULES, 'projects', 'sub', 'index.ts'),
    };
    const throughIndex = { from, specifier: '../projects/index.js', to: path.join(MODULES, 'projects', 'index.ts') };
    const own = { from, specifier: './alerts.repo.js', to: path.join(MODULES, 'alerts', 'alerts.repo.ts') };
    const fromTest = {
      from: path.join(ROOT, 'test', 'x.test.ts'),
      specifier: '../src/modules/projects/projects.repo.js',
      to: path.join(MODULES, 'projects', 'projects.repo.ts'),
    };
    expect(importsPastIndex([past, nested, throughIndex, own, fromTest])).toEqual([
      'src/modules/alerts/alerts.service.ts imports ../projects/projects.service.js (src/modules/projects/projects.service.ts)',
      'src/modules/alerts/alerts.service.ts imports ../projects/sub/index.js (src/modules/projects/sub/index.ts)',
      'test/x.test.ts imports ../src/modules/projects/projects.repo.js (src/modules/projects/projects.repo.ts)',
    ]);
  });

  it('lets modules use MCP only through its contract in src/mcp/kit/', () => {
    expect(mcpPastKit(srcEdges)).toEqual([]);
  });

  it('reports a module importing the MCP server', () => {
    const from = path.join(MODULES, 'skills', 'skills.tools.ts');
    const server = { from, specifier: '../../mcp/server.js', to: path.join(SRC, 'mcp', 'server.ts') };
    const kit = { from, specifier: '../../mcp/kit/tool.js', to: path.join(KIT, 'tool.ts') };
    const app = {
      from: path.join(SRC, 'app', 'x.ts'),
      specifier: '../mcp/server.js',
      to: path.join(SRC, 'mcp', 'server.ts'),
    };
    expect(mcpPastKit([server, kit, app])).toEqual([
      'src/modules/skills/skills.tools.ts imports ../../mcp/server.js (src/mcp/server.ts)',
    ]);
  });

  it('has no import cycles, type-only imports included', () => {
    expect(importCycles(srcEdges)).toEqual([]);
  });

  it('reports an import cycle with the files on it', () => {
    const [a, b, c, d] = ['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((name) => path.join(SRC, name));
    const edge = (from: string, to: string) => ({ from: from!, specifier: '', to: to! });
    expect(importCycles([edge(a!, b!), edge(b!, c!), edge(c!, a!), edge(c!, d!), edge(d!, d!)]).sort()).toEqual([
      'src/a.ts -> src/b.ts -> src/c.ts -> src/a.ts',
      'src/d.ts -> src/d.ts',
    ]);
    // The parser sees type-only imports, re-exports and dynamic imports alike.
    const parsed = ts.preProcessFile(
      "import type { A } from './a.js';\nexport { B } from './b.js';\nawait import('./c.js');",
      true,
      true,
    );
    expect(parsed.importedFiles.map((ref) => ref.fileName)).toEqual(['./a.js', './b.js', './c.js']);
  });
});
