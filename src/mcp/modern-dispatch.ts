import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import type { ZodType } from 'zod';
import type { RequestContext } from '../platform/context/request-context.js';
import { actorHas } from '../platform/auth/actor.js';
import { VersionedCache } from '../platform/cache/versioned-cache.js';
import { asciiJson } from './ascii-json.js';
import { envelopeOutputSchema } from './envelope.js';
import { prewrittenResultJson } from './result-json.js';
import { cachedToolListingFor, runToolCall, serverIdentity, type CallerInfo, type McpServerDeps } from './server.js';
import type { AnyToolSpec } from './tool.js';

const MODERN_REVISION = '2026-07-28';
const RESULT_OPEN = Buffer.from('{"result":');
const SSE_RESULT_OPEN = Buffer.from('event: message\ndata: {"result":');
const LEGACY_SESSION_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
/** What the SDK adds to a modern result (its cache hint of its own is absent for tools/call). */
const MODERN_RESULT_TAIL = ',"resultType":"complete"';
/** The `_meta` keys a plain request carries; anything else (progressToken, logLevel, …) goes the SDK way. */
const PLAIN_META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

/** How a fast call learns it was cancelled; the signal is read only by tools that can stop early. */
export interface Cancellation {
  readonly signal: AbortSignal;
}

interface FastTool {
  spec: AnyToolSpec;
  /** The envelope schema the SDK would validate structuredContent against, built once. */
  output?: ZodType;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The 2026-07-28 fast path for the two hot requests, `tools/list` and `tools/call` of a read-only
 * registry tool, answered without building an SDK server per request.
 *
 * It takes only the plain, valid case and hands everything else to the SDK path, which then gives
 * the exact answer the spec names: the request must classify as a modern request with the SDK's own
 * `classifyInboundRequest` (the validation ladder: JSON-RPC shape, envelope, method registry, params,
 * standard headers), match its spec schema (`isSpecType`), carry headers that equal the body, a
 * `_meta` with nothing but the envelope keys, and for a call: a known read-only registry tool the
 * caller's role allows, with arguments its input schema accepts. The answer is the one the SDK path
 * gives (same `runToolCall`, same listing, same result envelope and output validation); the
 * equivalence is tested against the SDK path on both stores.
 */
export class ModernFastPath {
  private readonly tools = new Map<string, FastTool>();
  /**
   * Finished answers of tools that name their state (ToolSpec.answerToken), by tool and arguments,
   * tagged with the token. Stored frozen and already checked against the output schema.
   */
  private readonly answers: VersionedCache<CallToolResult, string>;
  /** The modern-era serialization of a reused answer (the same object serializes the same). */
  private readonly modernBytes = new WeakMap<CallToolResult, Buffer>();

  /** The serverInfo member the SDK adds to a modern result's `_meta`, as JSON. */
  private readonly serverInfoMember: string;

  constructor(private readonly deps: McpServerDeps) {
    this.serverInfoMember = `${JSON.stringify(SERVER_INFO_META_KEY)}:${JSON.stringify(serverIdentity(deps))}`;
    this.toolPermissions = [...new Set(deps.registry.tools.map((tool) => tool.permission))].sort();
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
   * Serialized tools/list results by era and by which tool permissions the caller holds (the
   * listing is ~54 KB of JSON): callers with the same permissions see the same tools, so a
   * listing is filtered and serialized once per kind of caller, not per request.
   */
  private readonly serializedListings = new Map<string, Buffer>();
  /** The distinct permissions the registry's tools need, in a fixed order. */
  private readonly toolPermissions: AnyToolSpec['permission'][];

  /** Which of the tool permissions the actor holds, as a key ('1' held, '0' not). */
  private permissionKey(actor: CallerInfo['actor']): string {
    let key = '';
    for (const permission of this.toolPermissions) key += actorHas(actor, permission) ? '1' : '0';
    return key;
  }

  /** The serialized listing this caller sees in an era, or undefined until some SDK server has listed. */
  private async serializedListing(era: 'modern' | 'legacy', caller: CallerInfo): Promise<Buffer | undefined> {
    const key = `${era}:${this.permissionKey(caller.actor)}`;
    const known = this.serializedListings.get(key);
    if (known) return known;
    // Filled by the first tools/list any SDK server answered (the SDK path answers that one).
    const listing = await cachedToolListingFor(this.deps, caller.actor);
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
   * The JSON body of the answer as the chunks to write in order (a listing is not copied per
   * request), or undefined when the SDK path must answer this request.
   */
  async answer(
    headers: IncomingHttpHeaders,
    body: unknown,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<Buffer[] | undefined> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const method = (body as { method?: unknown }).method;
    if (method !== 'tools/list' && method !== 'tools/call') return undefined;
    const accept = header(headers, 'accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    const protocolVersionHeader = header(headers, 'mcp-protocol-version');
    const mcpMethodHeader = header(headers, 'mcp-method');
    const mcpNameHeader = header(headers, 'mcp-name');
    if (protocolVersionHeader !== MODERN_REVISION || mcpMethodHeader !== method) return undefined;

    const outcome = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader,
      mcpMethodHeader,
      mcpNameHeader,
      body,
    });
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
    const message = outcome.message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = params._meta as Record<string, unknown> | undefined;
    if (!meta || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
    if (Object.keys(meta).some((key) => !PLAIN_META_KEYS.has(key))) return undefined;

    const result =
      method === 'tools/list'
        ? await this.list(message, params, mcpNameHeader, caller)
        : await this.call(message, params, mcpNameHeader, caller, cancel);
    if (result === undefined) return undefined;
    return [RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`)];
  }

  private async list(
    message: unknown,
    params: Record<string, unknown>,
    nameHeader: string | undefined,
    caller: CallerInfo,
  ): Promise<Buffer | undefined> {
    // A cursor, or any other parameter, is the SDK's to interpret.
    if (nameHeader !== undefined || Object.keys(params).some((key) => key !== '_meta')) return undefined;
    if (!isSpecType.ListToolsRequest(message)) return undefined;
    return this.serializedListing('modern', caller);
  }

  private async call(
    message: unknown,
    params: Record<string, unknown>,
    nameHeader: string | undefined,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<Buffer | undefined> {
    const name = params.name;
    if (typeof name !== 'string' || nameHeader !== name) return undefined;
    const result = await this.runReadOnly(message, params, caller, cancel);
    if (result === undefined) return undefined;
    const known = this.modernBytes.get(result);
    if (known) return known;
    const json =
      prewrittenResultJson(result, this.serverInfoMember, MODERN_RESULT_TAIL) ??
      JSON.stringify({
        ...result,
        resultType: 'complete',
        _meta: { ...result._meta, [SERVER_INFO_META_KEY]: serverIdentity(this.deps) },
      });
    const bytes = Buffer.from(json);
    if (Object.isFrozen(result)) this.modernBytes.set(result, bytes);
    return bytes;
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
    if (!actorHas(caller.actor, tool.spec.permission)) return undefined;
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

  /**
   * The 2025-era counterpart for a plain `tools/list` or read-only `tools/call` on a live session
   * this process holds, framed as the one-message event stream the SDK session transport answers
   * with. The answer goes out in one write once the tool has finished, so there is no partial
   * stream to resume; requests that ask for progress (a `_meta.progressToken`) or anything else
   * that can stream go through the SDK transport, whose event ids let a client resume (SEP-1699).
   */
  async answerSession(
    headers: IncomingHttpHeaders,
    body: unknown,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<Buffer[] | undefined> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    if (message.jsonrpc !== '2.0' || (typeof message.id !== 'string' && typeof message.id !== 'number'))
      return undefined;
    if (message.method !== 'tools/list' && message.method !== 'tools/call') return undefined;
    const id = message.id;
    const accept = header(headers, 'accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (!LEGACY_SESSION_VERSIONS.has(header(headers, 'mcp-protocol-version') ?? '')) return undefined;
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (typeof params !== 'object' || Array.isArray(params)) return undefined;
    const meta = params._meta;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Object.keys(meta).length > 0))
      return undefined;

    let result: Buffer | undefined;
    if (message.method === 'tools/list') {
      if (Object.keys(params).length > 0 || !isSpecType.ListToolsRequest(message)) return undefined;
      result = await this.serializedListing('legacy', caller);
      if (!result) return undefined;
    } else {
      const answer = await this.runReadOnly(message, params, caller, cancel);
      if (answer === undefined) return undefined;
      result = Buffer.from(prewrittenResultJson(answer) ?? JSON.stringify(answer));
    }
    return [SSE_RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n\n`)];
  }
}
