/**
 * A chat host in miniature, for trying and testing views without a chat client: it calls a tool on
 * the running service through the official MCP client, reads the tool's ui:// resource, embeds the
 * view in a sandboxed iframe (an opaque origin, a CSP that lets nothing load from the network),
 * performs the MCP Apps handshake with a host context and hands the view the real result. The
 * view's own tool calls are forwarded to the service by AppBridge through the same client.
 */
import { AppBridge, type McpUiHostStyles, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FOREIGN_HOST_STYLES, REFERENCE_HOST_STYLES } from './reference-styles.js';

type Theme = 'light' | 'dark';
/** Whose style variables the host hands the view: a few of our own, or the reference host's full set. */
type Styles = 'ours' | 'reference' | 'foreign';

interface HostRun {
  /** ms from handing the result to the view to its first size report after it (first complete render). */
  renderMs: number | null;
  resourceUri: string;
  htmlBytes: number;
}

declare global {
  interface Window {
    contextHubHost: {
      run(opts: RunOptions): Promise<HostRun>;
      setTheme(theme: Theme, styles?: Styles): void;
      errors: string[];
    };
  }
}

const log = (line: string) => {
  const el = document.getElementById('log');
  if (el) el.textContent = `${line}\n${el.textContent ?? ''}`.slice(0, 4000);
};

// What the view may load: nothing from outside; its inline scripts and styles only.
const VIEW_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'";

let bridge: AppBridge | null = null;
const errors: string[] = [];

/**
 * A host sets a few of the standard variables, as real hosts do; the view keeps its own for the rest.
 * `reference` hands it every variable of the MCP Apps reference host instead.
 */
function hostStyles(theme: Theme, styles: Styles = 'ours'): McpUiHostStyles {
  if (styles === 'reference') return REFERENCE_HOST_STYLES;
  if (styles === 'foreign') return FOREIGN_HOST_STYLES;
  return {
    variables: {
      '--font-sans': 'system-ui, sans-serif',
      '--color-background-primary': theme === 'dark' ? '#16181d' : '#ffffff',
    } as McpUiHostStyles['variables'],
  };
}

interface RunOptions {
  mcp: string;
  tool: string;
  args: Record<string, unknown>;
  theme: Theme;
  styles?: Styles;
  token?: string;
  /** A view to embed instead of the tool's own (bench:widgets' floor view). */
  html?: string;
}

async function run(opts: RunOptions): Promise<HostRun> {
  document.body.classList.toggle('dark', opts.theme === 'dark');
  showInForm(opts);
  // A host that renders views says so (MCP Apps capability negotiation): the service then lists the
  // app-only tools its views call, which it leaves out for hosts that render none.
  const client = new Client(
    { name: 'context-hub-test-host', version: '1.0.0' },
    { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
  );
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(opts.mcp), { requestInit: { headers } }));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === opts.tool);
  if (!tool) throw new Error(`the service lists no tool ${opts.tool}`);
  const ui = (tool._meta as { ui?: { resourceUri?: string } } | undefined)?.ui;
  const resourceUri = ui?.resourceUri ?? '';
  let html = opts.html ?? '';
  if (opts.html === undefined) {
    if (!resourceUri) throw new Error(`${opts.tool} names no UI resource`);
    const resource = await client.readResource({ uri: resourceUri });
    const content = resource.contents[0];
    html = content && 'text' in content ? content.text : '';
  }
  const result = await client.callTool({ name: opts.tool, arguments: opts.args });

  const box = document.getElementById('frame-box')!;
  box.replaceChildren();
  const iframe = document.createElement('iframe');
  iframe.title = `${opts.tool} view`;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.srcdoc = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">`);
  box.append(iframe);

  bridge?.close().catch(() => {});
  bridge = new AppBridge(
    client,
    { name: 'context-hub-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {}, logging: {} },
    {
      hostContext: {
        theme: opts.theme,
        styles: hostStyles(opts.theme, opts.styles),
        locale: 'en-US',
        timeZone: 'UTC',
        platform: 'web',
        displayMode: 'inline',
        containerDimensions: { maxHeight: 4000, width: 760 },
        safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
        toolInfo: { tool },
      },
    },
  );
  let sentAt = 0;
  let renderMs = null as number | null;
  let firstRender: () => void = () => {};
  const rendered = new Promise<void>((resolve) => {
    firstRender = resolve;
  });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${Math.ceil(height)}px`;
    if (sentAt > 0 && renderMs === null) {
      renderMs = performance.now() - sentAt;
      firstRender();
    }
  };
  bridge.onloggingmessage = (m) => log(`view log: ${JSON.stringify(m.data)}`);
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  await initialized;
  await bridge.sendToolInput({ arguments: opts.args });
  sentAt = performance.now();
  await bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
  await rendered;
  log(`${opts.tool}: rendered in ${renderMs?.toFixed(1)} ms`);
  return { renderMs, resourceUri, htmlBytes: html.length };
}

/** The form shows what was rendered, whoever asked for it (the form, a test or the bench). */
function showInForm(opts: RunOptions): void {
  const form = document.getElementById('controls') as HTMLFormElement | null;
  if (!form) return;
  (form.elements.namedItem('mcp') as HTMLInputElement).value = opts.mcp;
  (form.elements.namedItem('tool') as HTMLInputElement).value = opts.tool;
  (form.elements.namedItem('args') as HTMLInputElement).value = JSON.stringify(opts.args);
  (form.elements.namedItem('theme') as HTMLSelectElement).value = opts.theme;
}

window.addEventListener('error', (e) => errors.push(String(e.message)));
window.contextHubHost = {
  run,
  errors,
  setTheme(theme, styles) {
    document.body.classList.toggle('dark', theme === 'dark');
    bridge?.setHostContext({ theme, styles: hostStyles(theme, styles) });
  },
};

const form = document.getElementById('controls') as HTMLFormElement;
const params = new URLSearchParams(location.search);
(form.elements.namedItem('mcp') as HTMLInputElement).value = params.get('mcp') ?? `${location.origin}/mcp`;
(form.elements.namedItem('tool') as HTMLInputElement).value = params.get('tool') ?? 'search_context';
(form.elements.namedItem('args') as HTMLInputElement).value = params.get('args') ?? '{"query":"roas"}';
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const f = new FormData(form);
  run({
    mcp: String(f.get('mcp')),
    tool: String(f.get('tool')),
    args: JSON.parse(String(f.get('args') || '{}')) as Record<string, unknown>,
    theme: f.get('theme') === 'dark' ? 'dark' : 'light',
  }).catch((error: unknown) => log(`error: ${error}`));
});
