#!/usr/bin/env node
// Builds every MCP Apps view under web/widgets/<name>/main.tsx into one self-contained HTML file,
// dist/web/widgets/<name>.html (scripts and styles inlined: a view loads nothing from the network).
// One HTML template serves all views; a tiny plugin points its entry at the view being built.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const root = path.resolve(import.meta.dirname, '..');
const widgetsDir = path.join(root, 'web', 'widgets');
const outDir = path.join(root, 'dist', 'web', 'widgets');
const only = process.argv.slice(2);

const names = fs
  .readdirSync(widgetsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(widgetsDir, d.name, 'main.tsx')))
  .map((d) => d.name)
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();

fs.mkdirSync(outDir, { recursive: true });
for (const name of names) {
  const tmp = path.join(root, 'dist', 'web', '.build', name);
  await build({
    root: widgetsDir,
    logLevel: 'warn',
    configFile: false,
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [
      {
        name: 'context-hub-view-entry',
        resolveId: (id) => (id === '/@view-entry' ? path.join(widgetsDir, name, 'main.tsx') : null),
      },
      viteSingleFile({ removeViteModuleLoader: true }),
    ],
    build: {
      outDir: tmp,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rollupOptions: { input: path.join(widgetsDir, 'index.html') },
    },
  });
  const html = fs
    .readFileSync(path.join(tmp, 'index.html'), 'utf8')
    .replace('<title>Context Hub</title>', `<title>Context Hub: ${name}</title>`);
  fs.writeFileSync(path.join(outDir, `${name}.html`), html);
  fs.rmSync(tmp, { recursive: true, force: true });
}
fs.rmSync(path.join(root, 'dist', 'web', '.build'), { recursive: true, force: true });

// The test host (web/test-host): a chat host in miniature for tests, benches and trying a view.
if (only.length === 0 || only.includes('test-host')) {
  await build({
    root: path.join(root, 'web', 'test-host'),
    logLevel: 'warn',
    configFile: false,
    plugins: [viteSingleFile({ removeViteModuleLoader: true })],
    build: {
      outDir: path.join(root, 'dist', 'web', 'test-host'),
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
    },
  });
}
// The console (web/console): a single-page app served under /console/, split per section (each
// section a dynamic import), hashed assets beside one index.html the service answers every path with.
if (only.length === 0 || only.includes('console')) {
  await build({
    root: path.join(root, 'web', 'console'),
    base: '/console/',
    logLevel: 'warn',
    configFile: false,
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: path.join(root, 'dist', 'web', 'console'),
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      // One stylesheet, sections' own CSS (review.css) folded in: a lazy chunk's CSS would be a
      // second request.
      cssCodeSplit: false,
      modulePreload: { polyfill: false },
    },
  });
}
console.log(`web: built ${names.length} view(s) into ${path.relative(root, outDir)}`);
