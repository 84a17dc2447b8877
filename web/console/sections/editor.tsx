import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from '../../shared/markdown.js';
import { api, ok, type Res } from '../api.js';
import { href } from '../router.js';
import { ErrorBox, useProject } from '../ui.js';

type Parsed = Res<'/api/skills/parse', 'post'>;

/**
 * Sanitized Markdown, rendered; `[[key]]` references in its text become links to the key in the
 * taxonomy (web/shared/markdown.ts: made before sanitizing, never inside an attribute or code).
 * `inline` renders one line (a Skill's description) in a span, its references linked the same way.
 */
export function Markdown(props: { source: string; inline?: boolean }) {
  const { project } = useProject();
  const html = renderMarkdown(props.source, {
    inline: props.inline,
    keyHref: (key) => href(`${project.id}/taxonomy?key=${key}`),
  });
  if (props.inline) return <span class="markdown-inline" dangerouslySetInnerHTML={{ __html: html }} />;
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * What the service parses from a draft, asked of the service itself (POST /api/skills/parse) a
 * moment after typing stops: steps, acceptance, [[key]] references with the unresolved ones flagged.
 */
export function useParsed(body: string): { parsed?: Parsed; error?: unknown } {
  const { project } = useProject();
  const [state, setState] = useState<{ parsed?: Parsed; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      ok(api.POST('/api/skills/parse', { body: { project_id: project.id, body_md: body } })).then(
        (parsed) => live && setState({ parsed }),
        (error) => live && setState((s) => ({ ...s, error })),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [body, project.id]);
  return state;
}

export function References(props: { keys: string[]; unresolved: string[] }) {
  if (props.keys.length === 0) return <p class="muted small">No [[key]] references.</p>;
  return (
    <ul class="plain row" aria-label="Business key references">
      {props.keys.map((k) => {
        const missing = props.unresolved.includes(k);
        return (
          <li key={k} class={`chip mono ${missing ? 'unresolved' : ''}`}>
            {k}
            {missing && <span> (not in the taxonomy)</span>}
          </li>
        );
      })}
    </ul>
  );
}

export function ParsedView(props: { steps: Parsed['steps']; acceptance: string[]; showSteps: boolean }) {
  return (
    <>
      {props.showSteps && (
        <>
          <h3>Steps ({props.steps.length})</h3>
          {props.steps.length === 0 ? (
            <p class="muted small">No steps: add an ordered list under a “Steps” heading.</p>
          ) : (
            <ol class="steps">
              {props.steps.map((s) => (
                <li key={s.index}>
                  <strong>{s.title}</strong>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      <h3>Acceptance ({props.acceptance.length})</h3>
      {props.acceptance.length === 0 ? (
        <p class="muted small">No acceptance items.</p>
      ) : (
        <ul>
          {props.acceptance.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The live preview next to an editor: the service's parse of the draft and its rendering. */
export function Preview(props: { body: string; showSteps: boolean }) {
  const { parsed, error } = useParsed(props.body);
  return (
    <section class="card stack preview" aria-label="Preview" aria-live="polite">
      <h2>Preview</h2>
      <ErrorBox error={error} />
      {parsed && (
        <>
          {props.showSteps && <ParsedView steps={parsed.steps} acceptance={parsed.acceptance} showSteps />}
          <h3>References</h3>
          <References keys={parsed.mdm_references} unresolved={parsed.unresolved_references} />
        </>
      )}
      <h3>Rendered</h3>
      <Markdown source={props.body} />
    </section>
  );
}

/** Saves a text as a file the browser downloads (SKILL.md export). */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
