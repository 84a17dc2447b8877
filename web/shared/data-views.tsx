import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type FormatContext, fmtDelta } from './format.js';
import { TONE_WORD, type Tone } from './kpi.js';
import type { ViewHost } from './view.js';
import './data.css';

/** An error the view met while calling the service, announced to screen readers. */
export function ErrorNotice(props: { error: string | null }) {
  if (!props.error) return null;
  return (
    <p class="notice error" role="alert">
      {props.error}
    </p>
  );
}

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A signed relative change with an arrow, coloured good or bad; the word says it without colour. */
export function Delta(props: { ratio: number | null; tone: Tone; format: FormatContext; suffix?: string }) {
  if (props.ratio === null) return <span class="delta tone-neutral">–</span>;
  const arrow = props.ratio > 0 ? '▲' : props.ratio < 0 ? '▼' : '';
  const word = TONE_WORD[props.tone];
  return (
    <span class={`delta tone-${props.tone}`}>
      <span aria-hidden="true">{arrow} </span>
      {fmtDelta(props.ratio, props.format)}
      {props.suffix ? ` ${props.suffix}` : ''}
      {word && <span class="visually-hidden"> ({word})</span>}
    </span>
  );
}

const STATUS_TONE: Record<string, string> = {
  pass: 'success',
  succeeded: 'success',
  warn: 'warning',
  queued: 'info',
  running: 'info',
  fail: 'danger',
  failed: 'danger',
  error: 'danger',
};

/**
 * A table wider than its view scrolls sideways inside this box. Keyboard users must reach that
 * scroll too (WCAG 2.1.1; axe's scrollable-region-focusable), and a table of plain cells has no
 * focusable child to carry them there: the box itself takes focus and names what it holds.
 */
export function ScrollRegion(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
    <section class="scroll" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}

/** A status as a badge: text first, colour second. */
export function StatusBadge(props: { status: string }) {
  return <span class={`badge ${STATUS_TONE[props.status] ?? ''}`}>{props.status}</span>;
}

/** Calls an app-only tool once per key and keeps its data (null while loading or after an error). */
export function useToolData<T>(
  host: ViewHost,
  tool: string,
  args: Record<string, unknown> | null,
): { data: T | null; error: string | null; loading: boolean } {
  const key = args ? JSON.stringify(args) : '';
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({
    key: '',
    data: null,
    error: null,
  });
  useEffect(() => {
    if (!args) return;
    let live = true;
    host
      .call<T>(tool, args)
      .then((a) => live && setState({ key, data: a.data, error: null }))
      .catch((e: unknown) => live && setState({ key, data: null, error: messageOf(e) }));
    return () => {
      live = false;
    };
  }, [key]);
  const current = state.key === key;
  return {
    data: current ? state.data : null,
    error: current ? state.error : null,
    loading: Boolean(args) && !current,
  };
}
