// npm run bench:tool-tokens [-- --write] [--per-tool]
// What an agent pays for the tool list: the model-visible part of tools/list (each tool's name,
// description and input schema; app-only tools left out as an MCP Apps host leaves them out),
// counted in tokens with real tokenizers (js-tiktoken: o200k_base, the GPT-4o/4.1/5 encoding, and
// cl100k_base), per protocol era, read through the official clients from `context-hub serve`
// (dist/, npm start's flags) on a fresh embedded store as a user starts it. Also the whole listing
// (output schemas and _meta included) for comparison, and the prompts a caller sees.
// --write replaces the "## tool tokens" section of BENCHMARKS.md; --per-tool prints every tool.
import '../src/platform/zod-runtime.js';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getEncoding, type Tiktoken } from 'js-tiktoken';
import { writeBenchmarkSection } from './support/benchmarks-file.js';
import { startServiceProcess } from './support/service-process.js';

const root = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
/** The budget for the whole model-visible list: what every session pays before its first call. */
const BUDGET_TOKENS = 6_000;
/** MCP Apps: what a host that renders views declares (ext-apps EXTENSION_ID, RESOURCE_MIME_TYPE). */
const APPS_CAPABILITY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  _meta?: Record<string, unknown>;
}

const encodings: [string, Tiktoken][] = [
  ['o200k_base', getEncoding('o200k_base')],
  ['cl100k_base', getEncoding('cl100k_base')],
];

/** What a host hands the model for a tool: its name, description and input schema, as JSON. */
function modelView(tool: ListedTool): string {
  return JSON.stringify({ name: tool.name, description: tool.description ?? '', input_schema: tool.inputSchema });
}

function modelVisible(tool: ListedTool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility;
  return !visibility || visibility.includes('model');
}

const tokens = (enc: Tiktoken, text: string) => enc.encode(text).length;

interface EraListing {
  era: string;
  apps: boolean;
  tools: ListedTool[];
  prompts: number;
}

async function listModern(url: string, apps: boolean): Promise<EraListing> {
  const client = new ModernClient(
    { name: 'bench-tokens', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: apps ? APPS_CAPABILITY : {} },
  );
  await client.connect(new ModernTransport(new URL(`${url}/mcp`)));
  try {
    const { tools } = await client.listTools();
    const { prompts } = await client.listPrompts();
    return { era: '2026-07-28', apps, tools: tools as ListedTool[], prompts: prompts.length };
  } finally {
    await client.close();
  }
}

async function listLegacy(url: string, apps: boolean, sse: boolean): Promise<EraListing> {
  const client = new LegacyClient(
    { name: 'bench-tokens', version: '1.0.0' },
    { capabilities: apps ? APPS_CAPABILITY : {} },
  );
  await client.connect(
    sse ? new SSEClientTransport(new URL(`${url}/sse`)) : new LegacyTransport(new URL(`${url}/mcp`)),
  );
  try {
    const { tools } = await client.listTools();
    const prompts = await client.listPrompts().then(
      (r) => r.prompts,
      () => [],
    );
    return {
      era: sse ? '2024-11-05 (HTTP+SSE)' : '2025-11-25 (session)',
      apps,
      tools: tools as ListedTool[],
      prompts: prompts.length,
    };
  } finally {
    await client.close();
  }
}

function row(listing: EraListing): string {
  const visible = listing.tools.filter(modelVisible);
  const modelText = visible.map(modelView);
  const modelBytes = modelText.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const whole = JSON.stringify(listing.tools);
  const counts = encodings.map(([, enc]) => modelText.reduce((n, t) => n + tokens(enc, t), 0));
  const wholeCounts = encodings.map(([, enc]) => tokens(enc, whole));
  return `| ${listing.era} | ${listing.apps ? 'yes' : 'no'} | ${listing.tools.length} | ${visible.length} | ${(modelBytes / 1024).toFixed(1)} KB | ${counts.map((c) => c.toLocaleString('en-US')).join(' | ')} | ${(Buffer.byteLength(whole) / 1024).toFixed(1)} KB / ${wholeCounts[0]!.toLocaleString('en-US')} | ${listing.prompts} |`;
}

function perTool(listing: EraListing): string[] {
  const [, enc] = encodings[0]!;
  return listing.tools
    .filter(modelVisible)
    .map((t) => ({
      name: t.name,
      description: tokens(enc, t.description ?? ''),
      schema: tokens(enc, JSON.stringify(t.inputSchema)),
      total: tokens(enc, modelView(t)),
    }))
    .sort((a, b) => b.total - a.total)
    .map((t) => `| \`${t.name}\` | ${t.description} | ${t.schema} | ${t.total} |`);
}

const service = await startServiceProcess(root, 'tokens');
try {
  const listings: EraListing[] = [];
  for (const apps of [false, true]) {
    listings.push(await listModern(service.url, apps));
    listings.push(await listLegacy(service.url, apps, false));
    listings.push(await listLegacy(service.url, apps, true));
  }
  const headline = listings.find((l) => l.era === '2026-07-28' && !l.apps)!;
  const [, o200k] = encodings[0]!;
  const headlineTokens = headline.tools.filter(modelVisible).reduce((n, t) => n + tokens(o200k, modelView(t)), 0);
  const section = [
    '## tool tokens',
    '',
    "`npm run bench:tool-tokens -- --write`: the model-visible part of `tools/list` (each tool's name,",
    'description and input schema as JSON, app-only tools left out as an MCP Apps host leaves them out) in',
    'tokens, read through the official clients from `context-hub serve` on a fresh embedded store (the demo',
    "project, operator caller: every tool). Tokenizer: js-tiktoken (o200k_base, cl100k_base); Claude's",
    'tokenizer is not published, so its counts are not here. "Apps client": the client declared the MCP',
    'Apps extension (`io.modelcontextprotocol/ui`); without it, app-only tools are not listed at all.',
    '',
    '| era | apps client | tools listed | model-visible | model-visible JSON | tokens o200k | tokens cl100k | whole listing (bytes / o200k tokens) | prompts |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...listings.map(row),
    '',
    `Budget: ≤ ${BUDGET_TOKENS.toLocaleString('en-US')} tokens model-visible for the whole list; now ${headlineTokens.toLocaleString('en-US')} (o200k, 2026-07-28).`,
    '',
    '### tool tokens per tool (2026-07-28, o200k_base, largest first)',
    '',
    '| tool | description | input schema | total (name, description, schema as JSON) |',
    '|---|---:|---:|---:|',
    ...perTool(headline),
  ].join('\n');
  console.log(section);
  if (args.has('--write')) writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'tool tokens', section);
  if (headlineTokens > BUDGET_TOKENS) process.exitCode = 1;
} finally {
  await service.stop();
}
