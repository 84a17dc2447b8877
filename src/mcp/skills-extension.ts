import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { type SkillSource, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import type { RequestContext } from '../platform/context/request-context.js';
import { type CallerInfo, callerOf } from './caller.js';
import { answer } from './prompts.js';
import type { McpServerDeps } from './server-deps.js';

/**
 * Answers depend on the caller's grants: hosts keep them private and ask again every time, so a
 * revoked grant or a new revision never lives on in a cache.
 */
export const SKILLS_CACHE_HINT = { ttlMs: 0, cacheScope: 'private' as const };

/**
 * The MCP Skills extension (io.modelcontextprotocol/skills) over the registry's Skill catalog, on
 * one server instance (before it connects): skills/list, skills/get and every file a resource,
 * in both protocol eras; the SDK adds ttlMs/cacheScope where the era has them and checks every
 * entry against the Agent Skills rules. One extension per server, since the SSE transport binds
 * its caller to the server.
 */
export function attachSkills(server: McpServer, deps: McpServerDeps, boundCaller?: CallerInfo): void {
  const catalog = deps.registry.skills;
  if (!catalog) return;
  const contextOf = (ctx: ServerContext): RequestContext => {
    const caller = callerOf(ctx, boundCaller);
    const client = server.server.getClientVersion();
    return {
      actor: caller.actor,
      requestId: caller.requestId,
      clock: deps.clock,
      log: deps.log,
      via: 'mcp',
      ...(client ? { client: { name: client.name, version: client.version } } : {}),
    };
  };
  const source: SkillSource = {
    list: (params, ctx) => answer(deps.log, () => catalog.list(contextOf(ctx), params.cursor)),
    get: (uri, ctx) => answer(deps.log, () => catalog.get(contextOf(ctx), uri)),
    read: (uri, ctx) => answer(deps.log, () => catalog.read(contextOf(ctx), uri)),
    // One page holds a whole folder (SKILL.md and at most 40 references): a cursor is not ours.
    readDirectory: (uri, params, ctx) =>
      params.cursor === undefined
        ? answer(deps.log, () => catalog.readDirectory(contextOf(ctx), uri))
        : Promise.resolve(undefined),
  };
  new SkillsExtension({
    source,
    cacheHint: SKILLS_CACHE_HINT,
    onWarning: (warning) => deps.log.warn({ skills: warning }, 'Skills extension warning'),
  }).attach(server);
}
