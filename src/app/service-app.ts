import { ViewCatalog } from '../mcp/views.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createMcpHandler, type McpHttpHandler, type McpServer } from '@modelcontextprotocol/server';
import { registerMcpEndpoint } from '../mcp/endpoint.js';
import { createMcpFastPath } from '../mcp/fast-path/index.js';
import { createMcpGate } from '../mcp/gate.js';
import { LegacySessionManager } from '../mcp/legacy-sessions/manager.js';
import type { McpRegistry } from '../mcp/kit/registry.js';
import { createMcpServer } from '../mcp/server.js';
import type { McpServerDeps } from '../mcp/server-deps.js';
import { SessionStore } from '../mcp/session-store.js';
import { moduleResources, moduleRoutes, moduleTools } from '../modules/index.js';
import { systemRoutes } from '../modules/system/index.js';
import { ConsoleAssets, consoleRoutes } from '../modules/console/index.js';
import { createPublicUrls } from '../platform/http/public-url.js';
import { OPERATOR } from '../platform/auth/actor.js';
import type { Authenticator } from '../platform/auth/authenticator.js';
import { createHttpAuth, restAuditFallback, withToolAuditFallback } from '../modules/org/index.js';
import { systemClock, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import { migrate } from '../platform/db/migrate.js';
import { openDatabase } from '../platform/db/open.js';
import { ChangeFeed } from '../platform/events/change-feed.js';
import { buildHttpApp, MCP_BODY_LIMIT, type HttpAppDeps } from '../platform/http/app.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { JobQueues } from '../platform/jobs/queues.js';
import type { RequestContext } from '../platform/context/request-context.js';
import { createServices, type Services } from './services.js';
import { VERSION } from './version.js';

export interface ServiceAppOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  /** An already-open database (tests give each suite its own schema). */
  db?: Database;
  /** Extra MCP registrations (the conformance fixtures). */
  mcpExtensions?: McpRegistry['extensions'];
  /** The MCP fast path for plain tools/list + read-only tools/call (src/mcp/fast-path/); on unless false. */
  mcpFastPath?: boolean;
  authenticator?: Authenticator;
  /** Whether this process works the job queues; defaults to SERVE_WORKERS (the worker role forces true). */
  workJobs?: boolean;
  /** Seconds between job polls (tests shorten it). */
  jobPollingSeconds?: number;
}

export interface ServiceApp {
  http: FastifyInstance;
  db: Database;
  services: Services;
  /** The jobs platform (pg-boss): queues every module defined, worked here when SERVE_WORKERS/worker. */
  jobs: JobQueues;
  config: Config;
  registry: McpRegistry;
  /** The 2025-era MCP sessions (stored, rehydrated, swept when idle). */
  mcpSessions: LegacySessionManager;
  /** A context for work the process does on its own behalf (seeding, jobs). */
  systemContext(): RequestContext;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** How long after the listener is up the job platform starts (see createServiceApp). */
const JOBS_START_DELAY_MS = 500;

/** Builds the whole service (REST + MCP) on an open, migrated store. */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? createLogger({ level: config.logLevel });
  const db = options.db ?? (await openDatabase(config));
  await migrate(db);
  const feed = new ChangeFeed(db, log);
  await feed.start();

  const jobs = new JobQueues({
    db,
    log,
    work: options.workJobs ?? config.serveWorkers,
    pollingIntervalSeconds: options.jobPollingSeconds,
    superviseSeconds: config.jobsSuperviseSeconds,
  });
  const services = createServices({ db, feed, config, clock, log, jobs });
  // The bundled ECB history on a first start (offline conversions); one lookup on a restart.
  await services.money.ensureSnapshot(clock.now());
  // The job platform starts after every module defined its queues, and (unless this process drives
  // schedules) only once the listener is up: it is the slowest step of a restart, and on the
  // embedded store its statements hold the event loop, so the first requests would queue behind it.
  // `jobs.send` starts it at once, so an on-demand run requested meanwhile is queued, not lost.
  let jobsTimer: NodeJS.Timeout | undefined;
  const startJobs = () =>
    void jobs.start().catch((err: unknown) => log.error({ err }, 'jobs platform failed to start'));
  // SCHEDULER_ENABLED: this process registers the minute cron that drives every schedule.
  if (config.schedulerEnabled) {
    await jobs.start();
    await services.evaluators.scheduler.start();
  }
  const registry: McpRegistry = {
    tools: withToolAuditFallback(moduleTools(services), services.org.audit),
    resources: moduleResources(services),
    extensions: options.mcpExtensions ?? [],
    views: ViewCatalog.load(),
    prompts: services.skillPrompts,
    skills: services.skillBundles,
    completer: services.completion,
  };
  const mcpDeps: McpServerDeps = {
    registry,
    clock,
    log,
    version: VERSION,
    envelopeInlineBytes: config.envelopeInlineBytes,
    answerCacheEntries: config.searchCacheEntries,
  };
  const factory = (): McpServer => createMcpServer(mcpDeps);
  const modern: McpHttpHandler = createMcpHandler(factory, {
    legacy: 'reject',
    bus: feed,
    maxRequestBodySize: MCP_BODY_LIMIT,
    onerror: (err) => log.debug({ err: { message: err.message } }, 'mcp request rejected'),
  });
  const legacy = new LegacySessionManager({
    store: new SessionStore(db),
    feed,
    createServer: factory,
    clock,
    log,
    maxRequestBodySize: MCP_BODY_LIMIT,
    maxLiveSessions: config.mcpLiveSessions,
  });
  legacy.start();

  const toolPermissions = new Map(registry.tools.map((tool) => [tool.name, tool.permission]));
  const auth = await createHttpAuth({
    config,
    org: services.org,
    clock,
    log,
    systemContext: { actor: OPERATOR, requestId: 'startup', clock, log },
    toolPermission: (name) => toolPermissions.get(name),
    override: options.authenticator,
  });
  const authenticator = auth.authenticator;
  const httpDeps: HttpAppDeps = {
    config,
    logger: log,
    clock,
    authenticator,
    version: VERSION,
    challenge: auth.challenge,
    onAuthenticated: auth.onAuthenticated,
    beforeSend: restAuditFallback(services.org.audit, clock),
  };
  const mcpGate = createMcpGate(httpDeps);
  const fastPath =
    options.mcpFastPath === false
      ? undefined
      : createMcpFastPath({
          server: mcpDeps,
          gate: mcpGate,
          useLiveSession: (id, subject) => legacy.useLiveSession(id, subject),
          log,
        });
  const http = buildHttpApp(
    httpDeps,
    [
      ...systemRoutes(services.system),
      ...auth.routes,
      ...moduleRoutes(services),
      ...consoleRoutes(config, createPublicUrls(config), ConsoleAssets.load()),
    ],
    { fastPath },
  );
  registerMcpEndpoint(http, {
    config,
    gate: mcpGate,
    legacy,
    modern,
    createSseServer: (caller) => createMcpServer(mcpDeps, caller),
    feed,
  });

  const systemContext = (): RequestContext => ({ actor: OPERATOR, requestId: 'system', clock, log });
  let closed = false;
  return {
    http,
    db,
    services,
    jobs,
    config,
    registry,
    mcpSessions: legacy,
    systemContext,
    async listen() {
      await http.listen({ port: config.port, host: config.host });
      jobsTimer ??= setTimeout(startJobs, JOBS_START_DELAY_MS);
      const address = http.server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host === '127.0.0.1' ? '127.0.0.1' : host}:${address.port}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(jobsTimer);
      await legacy.close();
      await modern.close();
      await http.close();
      await jobs.stop();
      await feed.stop();
      if (!options.db) await db.close();
    },
  };
}
