import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';

/** Names the stores this run covers, and makes sure the PGlite template exists (it speeds every suite). */
export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  const stores = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
  process.stdout.write(
    `\n[context-hub tests] stores under test: ${stores.join(', ')}${process.env.TEST_DATABASE_URL ? '' : ' (set TEST_DATABASE_URL to add PostgreSQL)'}\n`,
  );
  const { templateIsCurrent } = await import('../../src/platform/db/open.js');
  // Rebuild when a migration changed since the template was made (every PGlite suite loads it).
  if (
    !templateIsCurrent() ||
    !fs.existsSync(path.join(root, '.template', 'pglite-data.tar.gz')) ||
    !fs.existsSync(path.join(root, 'dist', 'cli.js'))
  ) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  } else if (!fs.existsSync(path.join(root, 'dist', 'web', 'test-host', 'index.html'))) {
    // The views and the test host (widget tests render them in Chromium).
    execFileSync('npm', ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
  }
  const { PGLITE_TEST_TEMPLATE } = await import('./stores.js');
  unpackTemplate(path.join(root, '.template', 'pglite-data.tar.gz'), PGLITE_TEST_TEMPLATE);
}

/** The gzipped template as a plain tar, for the test stores (stores.ts, PGLITE_TEST_TEMPLATE). */
function unpackTemplate(gzipped: string, plain: string): void {
  if (fs.existsSync(plain) && fs.statSync(plain).mtimeMs >= fs.statSync(gzipped).mtimeMs) return;
  // Written under another name and renamed: a run that stops half-way leaves no truncated template.
  fs.mkdirSync(path.dirname(plain), { recursive: true });
  const partial = `${plain}.${process.pid}`;
  fs.writeFileSync(partial, zlib.gunzipSync(fs.readFileSync(gzipped)));
  fs.renameSync(partial, plain);
}
