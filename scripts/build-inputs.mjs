#!/usr/bin/env node
// What dist/ was built from: a content hash of each part's inputs, kept in dist/.build-inputs.json.
// The test setup (test/support/global-setup.ts) compares it with the files on disk and rebuilds a
// stale part before a run, so tests that start the built CLI (`node dist/cli.js`) never run code
// older than the source. `npm run build` records it:
//   node scripts/build-inputs.mjs begin    hashes the inputs now, before anything is built
//   node scripts/build-inputs.mjs commit   after every step succeeded, marks dist/ as built from them
// (a build that fails half-way, or an edit made while it ran, leaves dist/ marked stale).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs.json');
const PENDING = path.join(ROOT, 'dist', '.build-inputs.pending.json');

/** Each part of dist/ and the files it is built from (the template has its own manifest). */
export const PARTS = {
  // tsc -p tsconfig.build.json → dist/**/*.js
  server: ['src', 'tsconfig.json', 'tsconfig.build.json'],
  // scripts/build-web.mjs → dist/web (views, console, test host)
  web: ['web', 'scripts/build-web.mjs'],
};

function files(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)));
}

/** The hash of a part's inputs: every file's path and bytes, in path order. */
export function inputsHash(part) {
  const hash = crypto.createHash('sha256');
  for (const file of PARTS[part].flatMap(files).sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function currentInputs() {
  return Object.fromEntries(Object.keys(PARTS).map((part) => [part, inputsHash(part)]));
}

/** What dist/ was last built from ({} when unknown: a build that never finished, or none). */
export function recordedInputs() {
  try {
    return JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
}

/** Marks one part of dist/ as built from `hash` (the test setup, after rebuilding only that part). */
export function recordPart(part, hash) {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  const next = { ...recordedInputs(), [part]: hash };
  fs.writeFileSync(`${STAMP}.${process.pid}`, `${JSON.stringify(next, null, 2)}\n`);
  fs.renameSync(`${STAMP}.${process.pid}`, STAMP);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === 'begin') {
    fs.mkdirSync(path.dirname(STAMP), { recursive: true });
    fs.rmSync(STAMP, { force: true });
    fs.writeFileSync(PENDING, `${JSON.stringify(currentInputs(), null, 2)}\n`);
  } else if (step === 'commit') {
    fs.renameSync(PENDING, STAMP);
  } else {
    console.error('usage: node scripts/build-inputs.mjs begin|commit');
    process.exit(64);
  }
}
