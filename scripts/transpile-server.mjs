#!/usr/bin/env node
// src/ → dist/ for the test runs: TypeScript's own emitter file by file (ts.transpileModule), with
// tsconfig.build.json's options and no type check. The JavaScript is byte for byte what
// `tsc -p tsconfig.build.json` writes (only a source map's path to its source can differ), in ~2 s
// of one core where tsc takes 10–20 s, most of it type-checking the whole program. The test setup
// (test/support/global-setup.ts) runs it whenever src/ changed since dist/ was built; `npm run build`
// still compiles with tsc, and `npm run typecheck` is where type errors fail.
// It needs nothing a per-file emit cannot know: no const enum or namespace shared between files,
// every re-export of a type written `export type` (tsconfig.json's isolatedModules holds the
// source to that, so `npm run typecheck` fails on code this emit would get wrong).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes dist/**\/*.js (and .js.map) for every source file of tsconfig.build.json; returns how many. */
export function transpileServer() {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  const { options } = parsed;
  const rootDir = options.rootDir ?? path.join(ROOT, 'src');
  const outDir = options.outDir ?? path.join(ROOT, 'dist');
  // NodeNext decides each file's format from package.json ("type": "module"), which a per-file
  // emit does not read: name the format it resolves to here.
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  let written = 0;
  for (const file of parsed.fileNames) {
    if (file.endsWith('.d.ts')) continue;
    const target = path.join(outDir, path.relative(rootDir, file)).replace(/\.ts$/, '.js');
    const result = ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, result.outputText);
    if (result.sourceMapText) fs.writeFileSync(`${target}.map`, result.sourceMapText);
    written++;
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const files = transpileServer();
  console.log(`transpiled ${files} files into dist/ in ${Math.round(performance.now() - started)} ms`);
}
