#!/usr/bin/env -S node --max-semi-space-size=32 --no-allocation-site-pretenuring
// --max-semi-space-size=32 gives V8's young generation 32 MB semi-spaces instead of 16: under load
// a request's short-lived objects then die in fewer scavenges, for less CPU per MCP call at the
// cost of some peak RSS. --no-allocation-site-pretenuring: V8 sometimes tenured a request-path
// allocation site during the first seconds of load and never revisited it, so objects survived
// every scavenge and MCP calls cost far more CPU for the life of the process. Figures:
// docs/performance.md and BENCHMARKS.md (mcp notes). V8 reads both only at process start, so they
// sit here and in `npm start`; test/cli/cli.test.ts checks that the two name the same flags.
//
// First, before any module builds a zod schema: see the module. `npm start` loads it with --import
// already; a bin's shebang cannot name a file next to the script, so this entry imports it itself
// and only then the rest, through a dynamic import that no reordering of imports can move up.
import './platform/zod-runtime.js';

const { runCli } = await import('./cli/main.js');
const exitCode = await runCli(process.argv.slice(2));
// A failed start can leave a pool or timers behind; nothing is left to finish, so end now.
if (exitCode !== 0) process.exit(exitCode);
