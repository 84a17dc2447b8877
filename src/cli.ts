#!/usr/bin/env -S node --max-semi-space-size=32
// The flag gives V8's young generation 32 MB semi-spaces instead of 16: under load a request's
// short-lived objects then die in fewer scavenges (bench:mcp, same build side by side: 15-20 %
// less CPU per MCP call, ~50 MB more peak RSS). V8 reads it only at process start, so it sits here
// and in `npm start`; test/foundation/cli.test.ts checks that the two name the same flags.
// First, before any module builds a zod schema: see the module.
import './platform/zod-runtime.js';
import { runCli } from './cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
