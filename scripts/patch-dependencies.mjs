// Applies the project's patches to installed dependencies (run by `npm install`/`npm ci` as
// postinstall). Each patch names the exact text it replaces: a dependency whose code has changed is
// left alone with a warning, never half-patched, and installing never fails because of a patch
// (the service is correct without them; test/platform/dependency-patches.test.ts reports one
// that did not apply). Usage: node scripts/patch-dependencies.mjs [--check]
//
// Only a copy in this package's own node_modules is patched: npm puts one there when this package
// is the root being installed (a checkout, `npm ci`), or when its tree is private (`npm i -g`, or a
// consumer's install that could not share the version). Code outside this package never resolves
// into that folder, so no other package sees the change. A copy npm shared with the consumer's own
// packages (hoisted next to this package) is left as installed. patch-package was the alternative:
// run as a consumer's postinstall it is either missing (a devDependency: the install fails) or
// patches the shared copy, and a diff that no longer fits fails the install instead of leaving the
// dependency as it was.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = 'context-hub patch:';

/**
 * zod ≥ 4.6 answers a failed safeParse with an object literal whose `error` is a getter/setter pair
 * closing over the issues, so every result carries accessor functions of its own and V8 gives the
 * results no shared hidden class. Measured: what such a result holds (the closure, the issues, the
 * parsed input) survives young-generation GCs and is promoted. The MCP SDK's classifyInboundRequest
 * fails such parses on every request (is it a result? an error response?), so on the 2026-07-28
 * path megabytes survived each scavenge instead of kilobytes, and a bare loop of failure literals
 * ran several times slower than this replacement (BENCHMARKS.md, mcp notes). The replacement is the
 * alternative zod's own comment names: one shared accessor and a hidden state slot. Same observable
 * shape: own enumerable `success` and `error` (built on first read, settable), nothing else
 * enumerable.
 */
const ZOD_LAZY_FAILURE = {
  name: 'zod lazy safeParse failure',
  package: 'zod',
  // package.json pins zod to exactly this version (test/platform/dependency-patches.test.ts checks).
  version: '4.6.7',
  files: ['v4/core/parse.js', 'v4/core/parse.cjs'],
  original: `function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())));
                // finalizeIssue drops \`input\`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}`,
  replacement: `// ${MARKER} zod lazy safeParse failure (scripts/patch-dependencies.mjs in context-hub says why)
const FAILURE_STATE = Symbol("zod.safeParse.failure");
const FAILURE_ERROR = {
    enumerable: true,
    configurable: true,
    get() {
        const state = this[FAILURE_STATE];
        if (!state.error) {
            state.error = new state.Err(state.issues.map((iss) => util.finalizeIssue(iss, state.ctx, core.config())));
            state.issues = undefined;
            state.ctx = undefined;
        }
        return state.error;
    },
    set(e) {
        const state = this[FAILURE_STATE];
        state.error = e;
        state.issues = undefined;
        state.ctx = undefined;
    },
};
function failure(Err, issues, ctx) {
    const result = { success: false };
    Object.defineProperty(result, FAILURE_STATE, { value: { Err, issues, ctx, error: undefined } });
    return Object.defineProperty(result, "error", FAILURE_ERROR);
}`,
};

export const PATCHES = [ZOD_LAZY_FAILURE];

/** This package's own copy of a dependency, or undefined when npm put none in its node_modules. */
function packageRoot(name) {
  const root = path.join(PACKAGE_DIR, 'node_modules', name);
  return fs.existsSync(path.join(root, 'package.json')) ? root : undefined;
}

/**
 * 'patched', 'applied' (just now), 'unpatched' (--check), 'not-ours' (no copy in this package's own
 * node_modules) or 'changed' (another version, or the expected text is not there) per file.
 */
export function applyPatch(patch, { write = true } = {}) {
  const root = packageRoot(patch.package);
  if (!root) return [{ file: patch.package, state: 'not-ours' }];
  // Written against one release: another one is left as installed even where the text still fits.
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (version !== patch.version) return [{ file: `${patch.package}@${version}`, state: 'changed' }];
  return patch.files.map((relative) => {
    const file = path.join(root, relative);
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.includes(patch.replacement)) return { file, state: 'patched' };
    const at = text.indexOf(patch.original);
    if (at < 0 || text.indexOf(patch.original, at + 1) >= 0) return { file, state: 'changed' };
    if (write) fs.writeFileSync(file, text.slice(0, at) + patch.replacement + text.slice(at + patch.original.length));
    return { file, state: write ? 'applied' : 'unpatched' };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  let unapplied = 0;
  for (const patch of PATCHES) {
    for (const { file, state } of applyPatch(patch, { write: !check })) {
      if (state !== 'patched' && state !== 'applied') unapplied += 1;
      if (state === 'not-ours')
        console.log(
          `patch-dependencies: ${patch.name}: ${patch.package} is shared with other packages here; left as installed`,
        );
      else if (state === 'changed')
        console.warn(
          `patch-dependencies: ${patch.name}: ${file} is not the code this patch was written for ` +
            `(${patch.package} ${patch.version}); left as installed (review the patch against it)`,
        );
      else if (state !== 'patched' || check)
        console.log(`patch-dependencies: ${patch.name}: ${path.relative(process.cwd(), file)} ${state}`);
    }
  }
  if (check && unapplied > 0) process.exitCode = 1;
}
