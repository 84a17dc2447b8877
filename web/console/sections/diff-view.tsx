import { Fragment } from 'preact';
import type { Res } from '../api.js';
import { TableWrap } from '../ui.js';
import { Instant } from './common.js';
import './review.css';

// What the review screen and the Skill and Knowledge histories share: a unified diff
// shown in two columns, the parsed changes of a Skill, and who wrote a version.

export type SkillDiff = Res<'/api/skills/{name}/diff', 'get'>;
export type KnowledgeDiff = Res<'/api/knowledge/{topic_id}/diff', 'get'>;
export type VersionAuthor = Res<'/api/skills/{name}/versions', 'get'>['versions'][number]['author'];

interface Cell {
  n: number | null;
  text: string;
  tone: 'same' | 'del' | 'add' | 'empty';
  /**
   * The text's last line has no newline ("\ No newline at end of file" in diff -u): `del` or
   * `add` when that is what changed (the line is the same on both sides), else `same`.
   */
  noEol?: 'same' | 'del' | 'add';
}
interface Row {
  kind: 'hunk' | 'line';
  header?: string;
  left?: Cell;
  right?: Cell;
}

/**
 * A unified diff (diff -u, as the service writes it) as rows of old | new: context on both sides,
 * a run of removed lines paired with the run of added lines that follows it. "\ No newline at end
 * of file" marks the line before it; when the last line is removed and added again only because
 * its newline changed, it shows once, unchanged, with the marker on the side without the newline.
 */
export function sideBySide(unified: string): Row[] {
  const rows: Row[] = [];
  let oldN = 0;
  let newN = 0;
  let dels: Cell[] = [];
  let adds: Cell[] = [];
  // The cells of the line read last: what a "\ No newline at end of file" marks.
  let last: Cell[] = [];
  const flush = () => {
    const d = dels.at(-1);
    const a = adds.at(-1);
    let eolOnly: Row | undefined;
    if (d && a && d.text === a.text && !d.noEol !== !a.noEol) {
      eolOnly = { kind: 'line', left: { ...d, tone: 'same' }, right: { ...a, tone: 'same' } };
      dels = dels.slice(0, -1);
      adds = adds.slice(0, -1);
    }
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      rows.push({
        kind: 'line',
        left: dels[i] ?? { n: null, text: '', tone: 'empty' },
        right: adds[i] ?? { n: null, text: '', tone: 'empty' },
      });
    }
    if (eolOnly) rows.push(eolOnly);
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
    } else if (line.startsWith('-')) {
      last = [{ n: oldN++, text: line.slice(1), tone: 'del' }];
      dels.push(last[0]!);
    } else if (line.startsWith('+')) {
      last = [{ n: newN++, text: line.slice(1), tone: 'add' }];
      adds.push(last[0]!);
    } else if (line.startsWith(' ')) {
      flush();
      const text = line.slice(1);
      last = [
        { n: oldN++, text, tone: 'same' },
        { n: newN++, text, tone: 'same' },
      ];
      rows.push({ kind: 'line', left: last[0], right: last[1] });
    } else if (line.startsWith('\\')) {
      for (const cell of last) cell.noEol = cell.tone === 'empty' ? undefined : cell.tone;
    }
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
        {c.noEol && (
          <span class={`diff-eol ${c.noEol}`} data-testid="no-eol">
            {'\\ No newline at end of file'}
          </span>
        )}
      </td>
    </>
  );
}

/** The body's unified diff, side by side; `from` and `to` name the two columns. */
export function DiffTable(props: { unified: string; from: string; to: string; label: string }) {
  if (!props.unified.trim()) return <p class="muted small">The bodies are the same.</p>;
  const rows = sideBySide(props.unified);
  return (
    <TableWrap>
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
    </TableWrap>
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
