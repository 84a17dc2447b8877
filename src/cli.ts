#!/usr/bin/env -S node --max-semi-space-size=32 --no-allocation-site-pretenuring
// --max-semi-space-size=32 gives V8's young generation 32 MB semi-spaces instead of 16: under load
// a request's short-lived objects then die in fewer scavenges (bench:mcp, same build side by side:
// 15-20 % less CPU per MCP call, ~50 MB more peak RSS). --no-allocation-site-pretenuring: in about
// one start in five V8 tenured a request-path allocation site during the first seconds of load and
// never revisited it, so ~3.4 MB survived every scavenge and MCP calls cost twice the CPU for the
// life of the process (docs/performance.md, BENCHMARKS.md). V8 reads both only at process start, so they sit
// here and in `npm start`; test/cli/cli.test.ts checks that the two name the same flags.
// First, before any module builds a zod schema: see the module.
import './platform/zod-runtime.js';
import { runCli } from './cli/main.js';

const exitCode = await runCli(process.argv.slice(2));
// A failed start can leave a pool or timers behind; nothing is left to finish, so end now.
if (exitCode !== 0) process.exit(exitCode);
