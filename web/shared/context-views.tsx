import { useState } from 'preact/hooks';
import type { Answer } from './answer.js';
import { fmtInstant } from './format.js';
import { renderMarkdown } from './markdown.js';
import type { ViewHost } from './view.js';

export interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface Procedure {
  name: string;
  version: number;
  current_version: number;
  description: string;
  steps: { index: number; title: string; instruction: string }[];
  acceptance: string[];
  mdm_references: string[];
  unresolved_references: string[];
  body_md: string;
}

export interface KnowledgeSheet {
  topic_id: string;
  title: string;
  owner: string | null;
  version_number: number;
  current_version: number;
  body_md: string;
  updated_at: string;
}

export interface BusinessKey {
  key: { key: string; label: string; description: string | null; parent: string | null; synonyms: string[] };
  parent: { key: string; label: string } | null;
  children: { key: string; label: string }[];
  linked: { kind: string; id: string; key: string; title: string; relation_type: string; next: NextCall }[];
}

/** Versions newest first, for a picker. */
const versionsOf = (current: number) => Array.from({ length: current }, (_, i) => current - i);

function VersionPicker(props: { id: string; version: number; current: number; onPick: (v: number) => void }) {
  return (
    <label class="row small" for={props.id}>
      <span class="muted">Version</span>
      <select id={props.id} value={props.version} onChange={(e) => props.onPick(Number(e.currentTarget.value))}>
        {versionsOf(props.current).map((v) => (
          <option key={v} value={v}>
            v{v}
            {v === props.current ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

function KeyChip(props: { keyName: string; unresolved?: boolean; onOpen?: (key: string) => void }) {
  if (!props.onOpen || props.unresolved) {
    return (
      <span
        class={`chip${props.unresolved ? ' unresolved' : ''}`}
        title={props.unresolved ? 'not in the taxonomy yet' : ''}
      >
        {props.keyName}
        {props.unresolved ? ' (unresolved)' : ''}
      </span>
    );
  }
  return (
    <button type="button" class="chip" onClick={() => props.onOpen?.(props.keyName)}>
      {props.keyName}
    </button>
  );
}

export function ProcedureView(props: {
  procedure: Procedure;
  projectId: string;
  host: ViewHost;
  onOpenKey?: (key: string) => void;
}) {
  const [shown, setShown] = useState(props.procedure);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Set<number>>(new Set());
  const p = shown;
  const pick = async (version: number) => {
    try {
      setError(null);
      const a = await props.host.call<Procedure>('get_procedure', {
        name: p.name,
        version,
        project_id: props.projectId,
      });
      setShown(a.data);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const unresolved = new Set(p.unresolved_references);
  return (
    <article class="stack" aria-label={`Procedure ${p.name}`}>
      <div class="spread">
        <h1>{p.name}</h1>
        <VersionPicker id={`v-${p.name}`} version={p.version} current={p.current_version} onPick={pick} />
      </div>
      <p class="muted">{p.description.replace(/\[\[([^\]]+)\]\]/g, '$1')}</p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <section>
        <h2>Steps</h2>
        <ol class="plain stack">
          {p.steps.map((s) => (
            <li key={s.index}>
              <details>
                <summary>
                  <strong>{s.index}.</strong> {s.title}
                </summary>
                <div class="markdown small" dangerouslySetInnerHTML={{ __html: renderMarkdown(s.instruction) }} />
              </details>
            </li>
          ))}
        </ol>
      </section>
      {p.acceptance.length > 0 && (
        <section>
          <h2>Acceptance</h2>
          <ul class="plain stack">
            {p.acceptance.map((a, i) => {
              const id = `acc-${p.name}-${i}`;
              return (
                <li key={a} class="row">
                  <input
                    type="checkbox"
                    id={id}
                    checked={done.has(i)}
                    onChange={() => {
                      const next = new Set(done);
                      if (!next.delete(i)) next.add(i);
                      setDone(next);
                    }}
                  />
                  <label for={id}>{a}</label>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {p.mdm_references.length > 0 && (
        <section>
          <h2>Business keys</h2>
          <div class="row">
            {p.mdm_references.map((k) => (
              <KeyChip key={k} keyName={k} unresolved={unresolved.has(k)} onOpen={props.onOpenKey} />
            ))}
          </div>
        </section>
      )}
    </article>
  );
}

export function KnowledgeView(props: { sheet: KnowledgeSheet; projectId: string; host: ViewHost }) {
  const [shown, setShown] = useState(props.sheet);
  const [error, setError] = useState<string | null>(null);
  const s = shown;
  const pick = async (version: number) => {
    try {
      setError(null);
      const a = await props.host.call<KnowledgeSheet>('get_knowledge', {
        topic_id: s.topic_id,
        version,
        project_id: props.projectId,
      });
      setShown(a.data);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <article class="stack" aria-label={`Knowledge ${s.topic_id}`}>
      <div class="spread">
        <h1>{s.title}</h1>
        <VersionPicker id={`k-${s.topic_id}`} version={s.version_number} current={s.current_version} onPick={pick} />
      </div>
      <p class="muted small">
        <span class="mono">{s.topic_id}</span>
        {s.owner ? ` · owner ${s.owner}` : ''} · v{s.version_number} of {s.current_version} ·{' '}
        {fmtInstant(s.updated_at, props.host.format)}
      </p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(s.body_md) }} />
    </article>
  );
}

export function BusinessKeyView(props: {
  businessKey: BusinessKey;
  onOpenKey?: (key: string) => void;
  onOpen?: (next: NextCall) => void;
}) {
  const { key, parent, children, linked } = props.businessKey;
  return (
    <article class="stack" aria-label={`Business key ${key.key}`}>
      <h1>{key.label}</h1>
      <p class="muted small mono">{key.key}</p>
      {key.description && <p>{key.description}</p>}
      {key.synonyms.length > 0 && (
        <p class="small">
          <span class="muted">Also called: </span>
          {key.synonyms.join(', ')}
        </p>
      )}
      <div class="row small">
        <span class="muted">Parent:</span>
        {parent ? (
          <KeyChip keyName={parent.key} onOpen={props.onOpenKey} />
        ) : (
          <span class="muted">none (a root key)</span>
        )}
      </div>
      {children.length > 0 && (
        <div class="row small">
          <span class="muted">Children:</span>
          {children.map((c) => (
            <KeyChip key={c.key} keyName={c.key} onOpen={props.onOpenKey} />
          ))}
        </div>
      )}
      <section>
        <h2>Explained by</h2>
        {linked.length === 0 ? (
          <p class="muted small">No Skill or Knowledge sheet links to this key yet.</p>
        ) : (
          <ul class="plain stack">
            {linked.map((l) => (
              <li key={`${l.kind}:${l.id}:${l.relation_type}`}>
                <span class="badge">{l.relation_type}</span>{' '}
                {props.onOpen ? (
                  <button type="button" class="link" onClick={() => props.onOpen?.(l.next)}>
                    {l.title}
                  </button>
                ) : (
                  l.title
                )}{' '}
                <span class="muted small">({l.kind})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

/** Opens whatever a `next` call names and shows it in place (search hits, key links, chips). */
export function OpenedObject(props: { answer: Answer<unknown>; host: ViewHost; onOpen: (next: NextCall) => void }) {
  const { answer, host } = props;
  const openKey = (key: string) => props.onOpen({ tool: 'get_business_key', arguments: { key } });
  switch (answer.tool) {
    case 'get_procedure':
      return (
        <ProcedureView
          procedure={answer.data as Procedure}
          projectId={answer.projectId}
          host={host}
          onOpenKey={openKey}
        />
      );
    case 'get_knowledge':
      return <KnowledgeView sheet={answer.data as KnowledgeSheet} projectId={answer.projectId} host={host} />;
    case 'get_business_key':
      return <BusinessKeyView businessKey={answer.data as BusinessKey} onOpenKey={openKey} onOpen={props.onOpen} />;
    default:
      return <pre class="small mono">{JSON.stringify(answer.data, null, 2)}</pre>;
  }
}
