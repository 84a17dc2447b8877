import { randomUUID } from 'node:crypto';
import {
  McpServer,
  ResourceTemplate,
  type ServerContext,
  type CallToolResult,
  type ListToolsResult,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import type { Actor } from '../platform/auth/actor.js';
import { actorHas } from '../platform/auth/actor.js';
import type { Clock } from '../platform/clock.js';
import { retryReadOnLoss } from '../platform/db/connection-loss.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { rejectNul } from '../platform/validation.js';
import { buildEnvelope, envelopeOutputSchema } from './envelope.js';
import type { AnyToolSpec, ToolContext } from './kit/tool.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { type CallerInfo, callerOf } from './caller.js';
import { installPromptHandlers } from './prompts.js';
import { attachSkills } from './skills-extension.js';
import { toolAccessFor } from './tool-access.js';
import { rendersViews } from './views.js';
import { errorResult, resourceReadError, roleForbidden } from './tool-errors.js';
import type { McpServerDeps } from './server-deps.js';

export const SERVER_NAME = 'context-hub';

export const SERVER_INSTRUCTIONS = [
  "Context Hub gives you governed context about this organization's analytics: procedures (Skills), topic documents (Knowledge), a business taxonomy, and data tools.",
  'Reading order: 1) search_context with your question; 2) get_procedure for a Skill hit (follow its numbered steps); 3) get_knowledge with topic_id for a Knowledge hit; get_business_key for a taxonomy key.',
  'get_skills, get_context_hub and get_knowledge without topic_id return raw unbounded lists: use them only when you already know you need everything.',
  'project_id defaults to "default", which resolves to your only project; when you can see several, the error lists the ids to choose from. A console URL (https://<host>/console/proj_…/…) pasted by a user works as project_id too.',
  'Writes (add_skill, add_knowledge) may answer status pending_review and a proposal_id when the project reviews agent writes: nothing is published until a reviewer approves; follow it with get_proposal.',
  'Errors come back as results with isError and a code (e.g. project_forbidden, role_forbidden, validation_failed) plus what to do next.',
].join('\n');

export { authInfoFor, type CallerInfo } from './caller.js';

/** A registry extension; it may carry server options its registrations depend on (e.g. a requestState verifier). */
export interface McpExtension {
  (server: McpServer): void;
  serverOptions?: Pick<ServerOptions, 'requestState'>;
}

/**
 * A server instance over the shared registry. Instances are cheap wrappers: the registry (tool
 * specs, schemas, services) is built once; the SDK needs one instance per connection.
 * `boundCaller` serves transports where AuthInfo is not threaded per message (the SSE transport).
 */
export function createMcpServer(deps: McpServerDeps, boundCaller?: CallerInfo): McpServer {
  const server = new McpServer(serverIdentity(deps), {
    instructions: SERVER_INSTRUCTIONS,
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      // Skills are prompts; their list changes when a Skill is added, revised or deleted.
      ...(deps.registry.prompts ? { prompts: { listChanged: true }, completions: {} } : {}),
    },
    ...Object.assign({}, ...deps.registry.extensions.map((e) => (e as McpExtension).serverOptions ?? {})),
  });
  for (const tool of deps.registry.tools) registerTool(server, deps, tool, boundCaller);
  applyCallerToolPolicy(server, deps, boundCaller);
  for (const resource of deps.registry.resources) {
    server.registerResource(
      resource.name,
      new ResourceTemplate(resource.uriTemplate, {
        list: async (ctx) => {
          const caller = callerOf(ctx, boundCaller);
          const rc = { actor: caller.actor, requestId: caller.requestId, clock: deps.clock, log: deps.log };
          // Listing and reading write nothing: a lost connection is retried once, as read-only tools are.
          const items = actorHas(caller.actor, resource.permission)
            ? await retryReadOnLoss(() => resource.list(rc))
            : [];
          return { resources: items.map((i) => ({ ...i, mimeType: resource.mimeType })) };
        },
      }),
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      async (uri, variables, ctx) => {
        const caller = callerOf(ctx, boundCaller);
        const rc = { actor: caller.actor, requestId: caller.requestId, clock: deps.clock, log: deps.log };
        const vars = Object.fromEntries(
          Object.entries(variables).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
        );
        try {
          const { text } = await retryReadOnLoss(() => resource.read(rc, uri.href, vars));
          return { contents: [{ uri: uri.href, mimeType: resource.mimeType, text }] };
        } catch (error) {
          throw resourceReadError(uri.href, error, deps.log);
        }
      },
    );
  }
  deps.registry.views.register(server);
  for (const extend of deps.registry.extensions) extend(server);
  attachSkills(server, deps, boundCaller);
  // After the extensions: what they registered with the SDK stays answerable through ours.
  installPromptHandlers(server, deps, boundCaller);
  answerInvalidParamsAsSuch(server);
  return server;
}

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

/**
 * The SDK's tools/list converts every tool's zod schemas to JSON Schema on every call (most of
 * a tools/list's CPU). Every server built from the same deps registers the same tools, and the
 * listing does not depend on the request or the era, so it is computed once per deps and shared.
 */
const listedToolsCache = new WeakMap<McpServerDeps, Promise<ListToolsResult>>();
function listedTools(deps: McpServerDeps, compute: () => Promise<ListToolsResult>): Promise<ListToolsResult> {
  let cached = listedToolsCache.get(deps);
  if (!cached) {
    const own = new Set(deps.registry.tools.map((tool) => tool.name));
    cached = compute().then((listing) => withoutDefaultDialect(listing, own));
    listedToolsCache.set(deps, cached);
    // A failed conversion is not cached: the next tools/list tries again and reports its own error.
    cached.catch(() => listedToolsCache.delete(deps));
  }
  return cached;
}

/** The JSON Schema dialect MCP assumes for a tool's inputSchema that names none (spec 2025-11-25). */
const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The registry's tools' inputSchemas without the `$schema` zod writes when it names MCP's default
 * dialect anyway: the same schema for every client, ~15 fewer tokens per tool in what a model reads
 * (every session pays for the tool list). A tool an extension registers keeps what it declared (the
 * conformance suite checks that a declared `$schema` is preserved); output schemas keep theirs: validators read them.
 */
function withoutDefaultDialect(listing: ListToolsResult, own: ReadonlySet<string>): ListToolsResult {
  return {
    ...listing,
    tools: listing.tools.map((tool) => {
      if (!own.has(tool.name)) return tool;
      const { $schema, ...inputSchema } = tool.inputSchema as {
        $schema?: unknown;
      } & ListToolsResult['tools'][0]['inputSchema'];
      return $schema === DEFAULT_DIALECT ? { ...tool, inputSchema } : tool;
    }),
  };
}

/**
 * Tools a caller cannot use are absent from its tools/list, and calling one anyway is
 * answered role_forbidden before argument validation (the answer does not depend on the args).
 * The SDK's own handlers are wrapped, not reimplemented, so schemas and results stay the SDK's.
 */
function applyCallerToolPolicy(server: McpServer, deps: McpServerDeps, boundCaller?: CallerInfo): void {
  const access = toolAccessFor(deps.registry);
  // The SDK exposes registered handlers only through this protected accessor.
  const protocol = server.server as unknown as { _getRequestHandler(method: string): StoredHandler | undefined };
  const list = protocol._getRequestHandler('tools/list');
  const call = protocol._getRequestHandler('tools/call');
  if (!list || !call) throw new Error('MCP SDK did not install tools/list and tools/call handlers');
  server.server.setRequestHandler('tools/list', async (request, ctx) => {
    const actor = callerOf(ctx, boundCaller).actor;
    const result = await listedTools(deps, () => list(request, ctx) as Promise<ListToolsResult>);
    // Deprecated, but the one accessor that answers in every era (per request on 2026-07-28).
    return access.visibleListing(result, actor, rendersViews(server.server.getClientCapabilities()));
  });
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    if (!access.allows(callerOf(ctx, boundCaller).actor, name)) return roleForbidden(name, access.permissionOf(name)!);
    return (await call(request, ctx)) as CallToolResult;
  });
}

/** The serverInfo every server instance (and the modern fast path) reports. */
export function serverIdentity(deps: McpServerDeps): { name: string; version: string; title: string } {
  return { name: SERVER_NAME, version: deps.version, title: 'Context Hub' };
}

/**
 * The listing a tools/list gives this actor on a client that does (or does not) render views, when
 * some server has already computed it (else undefined).
 */
export async function cachedToolListingFor(
  deps: McpServerDeps,
  actor: Actor,
  views: boolean,
): Promise<ListToolsResult | undefined> {
  const cached = listedToolsCache.get(deps);
  if (!cached) return undefined;
  return toolAccessFor(deps.registry).visibleListing(await cached, actor, views);
}

/** How a tool call talks back to its client: cancellation and, when the client asked, progress. */
export interface ToolCallChannel {
  signal: AbortSignal;
  progressToken?: string | number;
  notify?: (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;
  /** The client's name and version, when the server knows them (recorded on the versions a write makes). */
  client?: { name: string; version: string };
}

/**
 * What a tool sees of its call. A class, not an object literal with getters: a literal whose
 * getters close over the call gets accessor functions of its own each time, V8 gives such objects
 * no shared hidden class, and (measured, as with zod's safeParse failures) what they hold then
 * survives young-generation GCs (BENCHMARKS.md, mcp notes).
 */
class ToolCallContext implements ToolContext {
  readonly actor: Actor;
  readonly requestId: string;
  readonly clock: Clock;
  readonly via = 'mcp' as const;
  readonly client: { name: string; version: string } | undefined;
  private childLog: Logger | undefined;

  constructor(
    private readonly deps: McpServerDeps,
    private readonly toolName: string,
    private readonly channel: ToolCallChannel,
    caller: CallerInfo,
  ) {
    this.actor = caller.actor;
    this.requestId = caller.requestId;
    this.clock = deps.clock;
    this.client = channel.client;
  }

  // Made on first use: a pino child (with its redaction paths) per call was a visible share of a
  // cheap call's CPU, and most calls log nothing.
  get log(): Logger {
    this.childLog ??= this.deps.log.child({ request_id: this.requestId, tool: this.toolName });
    return this.childLog;
  }

  // Read through: a channel may make its signal only when a tool asks for it.
  get signal(): AbortSignal {
    return this.channel.signal;
  }

  private boundProgress: ToolContext['progress'] | undefined;

  // Bound, so a tool may hand `ctx.progress` on as a callback; made on first use, as most calls
  // report no progress.
  get progress(): ToolContext['progress'] {
    this.boundProgress ??= this.sendProgress.bind(this);
    return this.boundProgress;
  }

  private async sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    const { progressToken, notify } = this.channel;
    if (progressToken === undefined || !notify) return;
    await notify({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
    });
  }
}

/** Runs one registry tool for a caller and presents the answer; every path (SDK servers, fast path) calls it. */
export async function runToolCall(
  deps: McpServerDeps,
  tool: AnyToolSpec,
  caller: CallerInfo,
  args: unknown,
  channel: ToolCallChannel,
): Promise<CallToolResult> {
  const toolCtx = new ToolCallContext(deps, tool.name, channel, caller);
  try {
    if (!toolAccessFor(deps.registry).allows(caller.actor, tool.name)) return roleForbidden(tool.name, tool.permission);
    rejectNul(args, 'arguments');
    // A read-only tool that lost its database connection runs once more on a fresh one; a writing
    // tool answers database_unavailable and says to retry (it may or may not have taken effect).
    const answer = tool.annotations.readOnlyHint
      ? await retryReadOnLoss(() => tool.run(toolCtx, args as never))
      : await tool.run(toolCtx, args as never);
    if (answer.kind === 'raw') return { content: [{ type: 'text', text: JSON.stringify(answer.value) }] };
    return buildEnvelope(tool.name, answer, deps.envelopeInlineBytes);
  } catch (error) {
    if (error instanceof AppError) return errorResult(error.code, error.message, error.hint, error);
    const incident = randomUUID();
    toolCtx.log.error({ err: error, incident }, 'tool failed');
    return errorResult(
      'internal_error',
      `The tool failed unexpectedly (incident ${incident}).`,
      'Retry once; if it fails again, report the incident id.',
    );
  }
}

/**
 * The client's identity: 2025-era sessions keep the one their initialize gave (replayed when a
 * session is rehydrated); on 2026-07-28 the SDK seeds it per request from the request's envelope.
 */
function clientOf(server: McpServer): { name: string; version: string } | undefined {
  // Deprecated in favour of the per-request envelope, but the one accessor that answers in both eras.
  const info = server.server.getClientVersion();
  return info ? { name: info.name, version: info.version } : undefined;
}

function registerTool(server: McpServer, deps: McpServerDeps, tool: AnyToolSpec, boundCaller?: CallerInfo): void {
  const uiMeta = deps.registry.views.toolMeta(tool);
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      ...(tool.dataShape ? { outputSchema: envelopeOutputSchema(tool.dataShape) } : {}),
      annotations: { title: tool.title, ...tool.annotations },
      ...(uiMeta ? { _meta: uiMeta } : {}),
    },
    (args: unknown, ctx: ServerContext): Promise<CallToolResult> =>
      runToolCall(deps, tool, callerOf(ctx, boundCaller), args, {
        signal: ctx.mcpReq.signal,
        progressToken: ctx.mcpReq._meta?.progressToken,
        notify: (notification) => ctx.mcpReq.notify(notification),
        client: clientOf(server),
      }),
  );
}
