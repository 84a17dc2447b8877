import { config, type $ZodMemoizer } from 'zod/v4/core';

/**
 * zod without cycle support, for every schema this process builds (ours and the MCP SDK's).
 *
 * Since 4.6, classic zod wraps every container schema's parse in a memoizer so that an input
 * holding reference cycles can be parsed; it allocates a WeakMap per parse and keeps per-parse
 * state that survives young-generation GCs. Nothing we validate can hold a cycle: requests and
 * answers come from or go to JSON, and config comes from strings. Measured on the MCP hot path
 * (the SDK's classifyInboundRequest and spec schemas run on every 2026-07-28 request; bench:mcp-ab,
 * the commit before and this one side by side): server CPU per call 107 → 96 µs for tools/list,
 * 130 → 117 µs for tools/call; scavenge time per request 10–11 → 6.6 µs. zod/mini runs this way by default; classic zod installs its memoizer
 * only when none is configured, so a memoizer that does nothing is how to opt out.
 *
 * zod reads the setting when a schema is constructed, so this module must be evaluated before
 * any schema exists: it is the first import of the CLI entry (src/cli.ts) and the tests' setup
 * file; test/platform/zod-runtime.test.ts checks both.
 */
export const NO_CYCLE_SUPPORT: $ZodMemoizer = {
  attach() {},
  guard() {},
  // What zod does without a memoizer: parse into the fresh container.
  alloc: (_inst, _payload, empty) => empty,
};

config({ memoizer: NO_CYCLE_SUPPORT });
