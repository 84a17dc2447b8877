import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps';
import { type ComponentType, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Answer, type CallToolResult, readAnswer, ToolAnswerError } from './answer.js';
import { defaultFormat, type FormatContext } from './format.js';
import './theme.css';

/** How long a view waits for the host's tool result before it asks the service itself. */
const RESULT_GRACE_MS = 1500;

export interface ViewHost {
  /** Calls a tool of the service through the host (same registry, gate and permissions). */
  call<T>(name: string, args: Record<string, unknown>): Promise<Answer<T>>;
  format: FormatContext;
  theme: 'light' | 'dark';
}

export interface ViewProps<T> {
  answer: Answer<T>;
  host: ViewHost;
}

type State<T> =
  | { status: 'waiting' }
  | { status: 'ready'; answer: Answer<T> }
  | { status: 'error'; message: string; code: string | null };

/**
 * Starts a view: handlers are set before connect() (a host may send the result right after the
 * handshake), the host's theme, style variables, fonts and safe-area insets are applied and
 * followed, the size is reported by the SDK's observer (the page never sizes itself to the
 * viewport), and a view whose host sent no result in time calls its tool itself.
 */
export function startView<T>(name: string, tool: string, View: ComponentType<ViewProps<T>>): App {
  const app = new App({ name: `context-hub-${name}`, version: '1.0.0' }, {}, { autoResize: true });
  let setState: (s: State<T>) => void = () => {};
  let pending: State<T> = { status: 'waiting' };
  let gotResult = false;
  let toolArgs: Record<string, unknown> | undefined;
  let format = defaultFormat();
  let theme: 'light' | 'dark' = 'light';
  let rerender: () => void = () => {};

  const show = (s: State<T>) => {
    pending = s;
    setState(s);
  };
  const accept = (result: CallToolResult) => {
    gotResult = true;
    try {
      show({ status: 'ready', answer: readAnswer<T>(result) });
    } catch (error) {
      const e = error instanceof ToolAnswerError ? error : new ToolAnswerError(String(error), null);
      show({ status: 'error', message: e.message, code: e.code });
    }
  };
  const applyContext = (ctx: McpUiHostContext | undefined) => {
    if (!ctx) return;
    if (ctx.theme) {
      theme = ctx.theme;
      applyDocumentTheme(ctx.theme);
    }
    if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
    if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
    if (ctx.safeAreaInsets) {
      const style = document.documentElement.style;
      for (const side of ['top', 'right', 'bottom', 'left'] as const) {
        style.setProperty(`--safe-${side}`, `${ctx.safeAreaInsets[side]}px`);
      }
    }
    if (ctx.locale || ctx.timeZone) {
      format = { locale: ctx.locale ?? format.locale, timeZone: ctx.timeZone ?? format.timeZone };
    }
    rerender();
  };

  app.ontoolinput = (params) => {
    toolArgs = params.arguments;
  };
  app.ontoolresult = (params) => accept(params as CallToolResult);
  app.ontoolcancelled = (params) =>
    show({ status: 'error', message: params.reason ?? 'The tool call was cancelled.', code: 'cancelled' });
  app.onhostcontextchanged = (ctx) => applyContext(ctx);
  app.onteardown = async () => ({});

  const host: ViewHost = {
    call: async <R,>(toolName: string, args: Record<string, unknown>) =>
      readAnswer<R>(await app.callServerTool({ name: toolName, arguments: args })),
    get format() {
      return format;
    },
    get theme() {
      return theme;
    },
  };

  function Shell() {
    const [state, set] = useState<State<T>>(pending);
    const [, tick] = useState(0);
    useEffect(() => {
      setState = set;
      rerender = () => tick((n) => n + 1);
      set(pending);
    }, []);
    if (state.status === 'waiting') {
      return (
        <main class="view" aria-busy="true">
          <p class="notice">Waiting for the answer…</p>
        </main>
      );
    }
    if (state.status === 'error') {
      return (
        <main class="view">
          <p class="notice error" role="alert">
            {state.message}
          </p>
        </main>
      );
    }
    return (
      <main class="view">
        <View answer={state.answer} host={host} />
      </main>
    );
  }

  const root = document.getElementById('root') ?? document.body;
  render(<Shell />, root);

  app
    .connect(new PostMessageTransport(window.parent, window.parent))
    .then(() => {
      applyContext(app.getHostContext());
      setTimeout(() => {
        if (gotResult) return;
        const info = app.getHostContext()?.toolInfo?.tool;
        // Only a read is repeated: a view shared by a write (add_skill, run_datastream) waits for
        // the host's result instead of running the write a second time.
        if (info && info.annotations?.readOnlyHint !== true) return;
        const ctxTool = info?.name;
        app
          .callServerTool({ name: ctxTool ?? tool, arguments: toolArgs ?? {} })
          .then((r) => {
            if (!gotResult) accept(r);
          })
          .catch((error: unknown) => show({ status: 'error', message: String(error), code: null }));
      }, RESULT_GRACE_MS);
    })
    .catch((error: unknown) => show({ status: 'error', message: `Could not reach the host: ${error}`, code: null }));
  return app;
}
