#!/usr/bin/env node
// Fails when a source line is longer than 120 characters. The one place a long line may stay is
// where it crosses the limit inside a literal (a template's SQL or Markdown, a long message):
// breaking it there would change the value or scatter one sentence over several pieces. Code,
// comments and imports the formatter and the author can wrap.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const LIMIT = 120;
const root = path.resolve(import.meta.dirname, '..');
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'src', 'test', 'bench', 'scripts', 'web'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  // Generated files (*.gen.ts: the console's API types) keep the generator's lines.
  .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.gen\.ts$/.test(f) && fs.existsSync(path.join(root, f)));

/** The source ranges of string, template and regular-expression literals. */
function stringLines(source, fileName) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const ranges = [];
  const visit = (node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      ranges.push([node.getStart(file), node.getEnd()]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { file, ranges };
}

let failures = 0;
for (const rel of files) {
  const source = fs.readFileSync(path.join(root, rel), 'utf8');
  const lines = source.split('\n');
  if (!lines.some((l) => l.length > LIMIT)) continue;
  const { file, ranges } = stringLines(source, rel);
  lines.forEach((line, i) => {
    if (line.length <= LIMIT) return;
    const start = file.getPositionOfLineAndCharacter(i, 0);
    const overflow = start + LIMIT;
    // Allowed when the line crosses the limit inside a string or template literal, or when a literal
    // on it is what makes it long (a test's name: the formatter keeps `it('…', async () => {` whole).
    const end = start + line.length;
    const literalOnLine = ([from, to]) => Math.max(0, Math.min(to, end) - Math.max(from, start));
    if (ranges.some(([from, to]) => from < overflow && overflow < to)) return;
    if (ranges.some((r) => line.length - literalOnLine(r) <= LIMIT)) return;
    failures += 1;
    console.log(`${rel}:${i + 1}: ${line.length} characters (limit ${LIMIT})`);
  });
}
if (failures > 0) {
  console.log(`${failures} line(s) over ${LIMIT} characters outside a string's text`);
  process.exit(1);
}
