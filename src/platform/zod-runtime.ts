import { $ZodNever, config, globalConfig, safeParse, version, type $ZodMemoizer } from 'zod/v4/core';

/**
 * zod without cycle support, for every schema this process builds (ours and the MCP SDK's).
 *
 * Since 4.6, classic zod wraps every container schema's parse in a memoizer so that an input
 * holding reference cycles can be parsed; it allocates a WeakMap per parse and keeps per-parse
 * state that survives young-generation GCs. Nothing we validate can hold a cycle: requests and
 * answers come from or go to JSON, and config comes from strings. On the MCP hot path (the SDK's
 * classifyInboundRequest and spec schemas run on every 2026-07-28 request) its allocations showed
 * in every call's server CPU and scavenge time (BENCHMARKS.md, mcp notes). zod/mini runs this way by default;
 * classic zod installs its memoizer only when none is configured, so a memoizer that does nothing
 * is how to opt out.
 *
 * zod reads the setting when a schema is constructed, so this module must be evaluated before
 * any schema exists: `npm start` loads it with `--import`, the bin (src/cli.ts) imports it before
 * anything else, and so does the tests' setup file; test/platform/zod-runtime.test.ts checks them.
 */
export const NO_CYCLE_SUPPORT: $ZodMemoizer = {
  attach() {},
  guard() {},
  // What zod does without a memoizer: parse into the fresh container.
  alloc: (_inst, _payload, empty) => empty,
};

// Classic zod installs its memoizer when it builds its first container schema: one already there
// means schemas were built with it before this module ran.
const loadedLate = globalConfig.memoizer !== undefined && globalConfig.memoizer !== NO_CYCLE_SUPPORT;

config({ memoizer: NO_CYCLE_SUPPORT });

export interface ZodRuntimeState {
  version: string;
  /** Failed safeParse results share one accessor (scripts/patch-dependencies.mjs, the zod patch). */
  safe_parse_patched: boolean;
  /** Every schema of this process was built without zod's cycle memoizer. */
  cycle_memoizer_off: boolean;
}

/** Whether what this module and the install-time patch set up is in effect, for the start log. */
export function zodRuntimeState(): ZodRuntimeState {
  const never = new $ZodNever({ type: 'never' });
  return {
    version: `${version.major}.${version.minor}.${version.patch}`,
    safe_parse_patched: failureAccessorShared(() => safeParse(never, undefined)),
    cycle_memoizer_off: !loadedLate && globalConfig.memoizer === NO_CYCLE_SUPPORT,
  };
}

/** Unpatched zod answers each failure with a literal of its own getter; the patch shares one. */
export function failureAccessorShared(fail: () => object): boolean {
  const accessor = () => Object.getOwnPropertyDescriptor(fail(), 'error')?.get;
  const first = accessor();
  return first !== undefined && first === accessor();
}
