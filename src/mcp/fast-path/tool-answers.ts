import type { IncomingHttpHeaders } from 'node:http';
import { type CallToolResult, isSpecType, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import type { ZodType } from 'zod';
import { VersionedCache } from '../../platform/cache/versioned-cache.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import { envelopeOutputSchema } from '../envelope.js';
import { type CallerInfo, cachedToolListingFor, runToolCall, serverIdentity } from '../server.js';
import type { McpServerDeps } from '../server-deps.js';
import type { AnyToolSpec } from '../kit/tool.js';
import { type ToolAccess, toolAccessFor } from '../tool-access.js';
import { asciiJson } from './ascii-json.js';

/** How a fast call learns it was cancelled; the signal is read only by tools that can stop early. */
export interface Cancellation {
  readonly signal: AbortSignal;
}

interface FastTool {
  spec: AnyToolSpec;
  /** The envelope schema the SDK would validate structuredContent against, built once. */
  output?: ZodType;
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether the client accepts both answer forms, as the SDK transports require. */
export function acceptsJsonAndEventStream(headers: IncomingHttpHeaders): boolean {
  const accept = header(headers, 'accept') ?? '';
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

/**
 * What both eras' fast answers share: the listing a kind of caller sees, serialized once, and a
 * read-only registry tool run the way the SDK path runs it (same `runToolCall`, same listing, same
 * result envelope and output validation). Anything it cannot answer exactly so, it declines
 * (undefined) and the SDK path answers; the equivalence is tested against the SDK path on both stores.
 */
export class ToolAnswers {
  private readonly tools = new Map<string, FastTool>();
  private readonly access: ToolAccess;
  /**
   * Finished answers of tools that name their state (ToolSpec.answerToken), by tool and arguments,
   * tagged with the token. Stored frozen and already checked against the output schema.
   */
  private readonly answers: VersionedCache<CallToolResult, string>;
  /**
   * Serialized tools/list results by era and by which tools the caller sees (the listing is large):
   * callers who see the same tools get the same bytes, filtered and serialized once per kind of caller.
   */
  private readonly serializedListings = new Map<string, Buffer>();

  constructor(readonly deps: McpServerDeps) {
    this.access = toolAccessFor(deps.registry);
    this.answers = new VersionedCache<CallToolResult, string>(deps.answerCacheEntries ?? 0);
    for (const spec of deps.registry.tools) {
      if (!spec.annotations.readOnlyHint) continue;
      this.tools.set(spec.name, {
        spec,
        ...(spec.dataShape ? { output: envelopeOutputSchema(spec.dataShape) as unknown as ZodType } : {}),
      });
    }
  }

  /**
   * The serialized listing this caller sees in an era on a client that does (or does not) render
   * views, or undefined until some SDK server has listed.
   */
  async serializedListing(era: 'modern' | 'legacy', caller: CallerInfo, views: boolean): Promise<Buffer | undefined> {
    const key = `${era}:${this.access.visibilityKey(caller.actor, views)}`;
    const known = this.serializedListings.get(key);
    if (known) return known;
    // Filled by the first tools/list any SDK server answered (the SDK path answers that one).
    const listing = await cachedToolListingFor(this.deps, caller.actor, views);
    if (!listing) return undefined;
    // The modern encoding adds to a cacheable result what the SDK adds without a cache hint of its own.
    const result =
      era === 'modern'
        ? {
            ...listing,
            resultType: 'complete',
            ttlMs: 0,
            cacheScope: 'private',
            _meta: { [SERVER_INFO_META_KEY]: serverIdentity(this.deps) },
          }
        : listing;
    const serialized = Buffer.from(asciiJson(result));
    this.serializedListings.set(key, serialized);
    return serialized;
  }

  /**
   * The era-independent part of a fast tools/call: a known read-only registry tool the caller's
   * role allows, with arguments its schema accepts, and an answer its output schema accepts.
   */
  async runReadOnly(
    message: unknown,
    params: Record<string, unknown>,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<CallToolResult | undefined> {
    const name = params.name;
    if (typeof name !== 'string') return undefined;
    if (Object.keys(params).some((key) => key !== 'name' && key !== 'arguments' && key !== '_meta')) return undefined;
    if (!isSpecType.CallToolRequest(message)) return undefined;
    const tool = this.tools.get(name);
    // Unknown, extension (fixture) or writing tools, and a role that does not allow the tool: the
    // SDK path gives those their answers.
    if (!tool) return undefined;
    if (!this.access.allows(caller.actor, name)) return undefined;
    if (params.arguments === undefined) return undefined;
    const parsed = tool.spec.input.safeParse(params.arguments);
    if (!parsed.success) return undefined;

    // Most tools name no state: no promise to wait for then.
    const token =
      tool.spec.answerToken && this.answers.enabled
        ? await this.answerToken(tool.spec, caller, parsed.data)
        : undefined;
    const key = token === undefined ? undefined : `${name}\n${JSON.stringify(parsed.data)}`;
    if (key !== undefined) {
      const reused = this.answers.get(key, token!);
      if (reused) return reused;
    }
    const result: CallToolResult = await runToolCall(this.deps, tool.spec, caller, parsed.data, cancel);
    // The SDK validates structuredContent against the advertised outputSchema; an answer that
    // fails it is re-run through the SDK path (read-only tools only) so the client gets the SDK's
    // own answer to that.
    if (!result.isError && tool.output && !tool.output.safeParse(result.structuredContent).success) return undefined;
    if (key !== undefined && !result.isError) this.answers.set(key, token!, result);
    return result;
  }

  /** The tool's answer token for this call; undefined (no reuse) when it has none or cannot say. */
  private async answerToken(spec: AnyToolSpec, caller: CallerInfo, input: unknown): Promise<string | undefined> {
    if (!spec.answerToken || !this.answers.enabled) return undefined;
    const ctx: RequestContext = {
      actor: caller.actor,
      requestId: caller.requestId,
      clock: this.deps.clock,
      log: this.deps.log,
    };
    // An error (unknown project, no access) is the tool's to answer: runToolCall gives it.
    return spec.answerToken(ctx, input).catch(() => undefined);
  }
}
