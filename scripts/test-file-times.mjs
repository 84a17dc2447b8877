#!/usr/bin/env node
// Writes test/file-times.json (the order in which the test workers take files, longest first:
// test/support/sequencer.ts) from the durations vitest kept of the last run in this checkout
// (node_modules/.vite/vitest/*/results.json). Run the whole suite first (`npm test`), on a machine
// as quiet as you can find; files that run since got no duration keep their old entry.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TABLE = path.join(ROOT, 'test', 'file-times.json');
const cacheDir = path.join(ROOT, 'node_modules', '.vite', 'vitest');
const table = fs.existsSync(TABLE) ? JSON.parse(fs.readFileSync(TABLE, 'utf8')) : {};
for (const dir of fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []) {
  const file = path.join(cacheDir, dir, 'results.json');
  if (!fs.existsSync(file)) continue;
  for (const [key, result] of JSON.parse(fs.readFileSync(file, 'utf8')).results) {
    const name = key.slice(key.indexOf(':') + 1);
    if (result.duration >= 0 && fs.existsSync(path.join(ROOT, name)))
      table[name] = Math.round(result.duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(
  Object.entries(table)
    .filter(([name]) => fs.existsSync(path.join(ROOT, name)))
    .sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync(TABLE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/file-times.json: ${Object.keys(sorted).length} files`);
