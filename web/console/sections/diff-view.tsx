import { Fragment } from 'preact';
import type { Res } from '../api.js';
import { Instant } from './common.js';
import './review.css';

// Issue 24: what the review screen and the Skill and Knowledge histories share: a unified diff
// shown in two columns, the parsed changes of a Skill, and who wrote a version.

export type SkillDiff = Res<'/api/skills/{name}/diff', 'get'>;
export type KnowledgeDiff = Res<'/api/knowledge/{topic_id}/diff', 'get'>;
export type VersionAuthor = Res<'/api/skills/{name}/versions', 'get'>['versions'][number]['author'];

interface Cell {
  n: number | null;
  text: string;
  tone: 'same' | 'del' | 'add' | 'empty';
}
interface Row {
  kind: 'hunk' | 'line';
  header?: string;
  left?: Cell;
  right?: Cell;
}

/**
 * A unified diff (diff -u, as the service writes it) as rows of old | new: context on both sides,
 * a run of removed lines paired with the run of added lines that follows it.
 */
export function sideBySide(unified: string): Row[] {
  const rows: Row[] = [];
  let oldN = 0;
  let newN = 0;
  let dels: Cell[] = [];
  let adds: Cell[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      rows.push({
        kind: 'line',
        left: dels[i] ?? { n: null, text: '', tone: 'empty' },
        right: adds[i] ?? { n: null, text: '', tone: 'empty' },
      });
    }
    dels = [];
    adds = [];
  };
  for (const line of unified.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(line);
    if (hunk) {
      flush();
      oldN = Number(hunk[1]);
      newN = Number(hunk[2]);
      rows.push({ kind: 'hunk', header: line });
    } else if (line.startsWith('-')) dels.push({ n: oldN++, text: line.slice(1), tone: 'del' });
    else if (line.startsWith('+')) adds.push({ n: newN++, text: line.slice(1), tone: 'add' });
    else if (line.startsWith(' ')) {
      flush();
      const text = line.slice(1);
      rows.push({ kind: 'line', left: { n: oldN++, text, tone: 'same' }, right: { n: newN++, text, tone: 'same' } });
    }
    // "\ No newline at end of file" and the trailing empty line carry no content of their own.
  }
  flush();
  return rows;
}

const SIGN = { same: ' ', del: '−', add: '+', empty: ' ' } as const;
const SPOKEN = { same: '', del: 'removed: ', add: 'added: ', empty: '' } as const;

function CellView(props: { cell: Cell }) {
  const c = props.cell;
  return (
    <>
      <td class={`diff-n ${c.tone}`}>{c.n ?? ''}</td>
      <td class={`diff-text ${c.tone}`}>
        <span aria-hidden="true" class="diff-sign">
          {SIGN[c.tone]}
        </span>
        <span class="visually-hidden">{SPOKEN[c.tone]}</span>
        {c.text}
      </td>
    </>
  );
}

/** The body's unified diff, side by side; `from` and `to` name the two columns. */
export function DiffTable(props: { unified: string; from: string; to: string; label: string }) {
  if (!props.unified.trim()) return <p class="muted small">The bodies are the same.</p>;
  const rows = sideBySide(props.unified);
  return (
    <div class="table-wrap">
      <table class="diff" aria-label={props.label} data-testid="diff">
        <colgroup>
          <col class="diff-n-col" />
          <col />
          <col class="diff-n-col" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col" colSpan={2}>
              {props.from}
            </th>
            <th scope="col" colSpan={2}>
              {props.to}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) =>
            r.kind === 'hunk' ? (
              <tr key={i} class="diff-hunk">
                <td colSpan={4} class="mono small">
                  {r.header}
                </td>
              </tr>
            ) : (
              <tr key={i}>
                <CellView cell={r.left!} />
                <CellView cell={r.right!} />
              </tr>
            ),
          )}
        </tbody>
      </table>
      <details class="small">
        <summary>Unified diff</summary>
        <pre class="summary">{props.unified}</pre>
      </details>
    </div>
  );
}

const show = (v: unknown) => (v === null || v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));

/** What changed beyond the body: description/title/owner/metadata, steps, acceptance, references. */
export function ParsedChanges(props: {
  fields: { field: string; from: unknown; to: unknown }[];
  steps?: SkillDiff['steps'];
  acceptance?: SkillDiff['acceptance'];
  references?: SkillDiff['references'];
}) {
  const lists = [
    ['Acceptance', props.acceptance],
    ['References', props.references],
  ] as const;
  const nothing =
    props.fields.length === 0 &&
    (props.steps?.length ?? 0) === 0 &&
    lists.every(([, l]) => !l || (l.added.length === 0 && l.removed.length === 0 && !l.reordered));
  return (
    <section class="stack changes" aria-label="Changes">
      {nothing && <p class="muted small">No change beyond the body’s text.</p>}
      {props.fields.length > 0 && (
        <dl class="facts">
          {props.fields.map((f) => (
            <Fragment key={f.field}>
              <dt>{f.field}</dt>
              <dd>
                <del>{show(f.from)}</del> → <ins>{show(f.to)}</ins>
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
      {props.steps && props.steps.length > 0 && (
        <>
          <h3>Steps</h3>
          <ul class="plain stack" aria-label="Step changes">
            {props.steps.map((s) => (
              <li key={`${s.change}:${s.title}:${s.from_index}:${s.to_index}`} class="row">
                <span class={`badge ${STEP_TONE[s.change]}`}>{s.change}</span>
                <strong>{s.title}</strong>
                <span class="muted small">
                  {s.from_index !== null && `was step ${s.from_index + 1}`}
                  {s.from_index !== null && s.to_index !== null && ' · '}
                  {s.to_index !== null && `now step ${s.to_index + 1}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {lists.map(([label, l]) =>
        l && (l.added.length > 0 || l.removed.length > 0 || l.reordered) ? (
          <div key={label}>
            <h3>{label}</h3>
            <ul class="plain stack" aria-label={`${label} changes`}>
              {l.added.map((a) => (
                <li key={`+${a}`}>
                  <span class="badge success">added</span> {a}
                </li>
              ))}
              {l.removed.map((a) => (
                <li key={`-${a}`}>
                  <span class="badge danger">removed</span> {a}
                </li>
              ))}
              {l.reordered && <li class="muted small">Reordered.</li>}
            </ul>
          </div>
        ) : null,
      )}
    </section>
  );
}

const STEP_TONE = { added: 'success', removed: 'danger', changed: 'warning', moved: 'info' } as const;

const VIA: Record<string, string> = { mcp: 'MCP', rest: 'REST API', console: 'console', import: 'import' };

/** Who wrote a version and how: subject, channel, MCP client, time. */
export function AuthorLine(props: { author: Omit<VersionAuthor, 'at' | 'proposal_id'>; at?: string }) {
  const a = props.author;
  return (
    <span class="author">
      <strong>{a.subject}</strong>{' '}
      <span class="badge info" title={a.via ? `written via ${VIA[a.via]}` : 'written before authorship was recorded'}>
        {a.via ?? 'unknown'}
      </span>
      {a.client && (
        <span class="small mono">
          {' '}
          {a.client.name} {a.client.version}
        </span>
      )}
      {props.at && (
        <span class="muted small">
          {' '}
          · <Instant at={props.at} />
        </span>
      )}
    </span>
  );
}
