import { wholeList } from '../pages.js';
import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { route } from '../router.js';
import { ErrorBox, Field, Loading, PageTitle, useLoad, useProject, useSubmit } from '../ui.js';

type Node = Res<'/api/taxonomy', 'get'>['roots'][number];
type Key = Res<'/api/taxonomy/keys/{key}', 'get'>;
type Link = Res<'/api/context/business-links', 'get'>['links'][number];

function Tree(props: { nodes: Node[]; selected?: string; onSelect(key: string): void }) {
  return (
    <ul>
      {props.nodes.map((n) => (
        <li key={n.key}>
          <button
            type="button"
            class="link"
            aria-current={n.key === props.selected ? 'true' : undefined}
            onClick={() => props.onSelect(n.key)}
          >
            {n.label}
          </button>{' '}
          <span class="muted small mono">{n.key}</span>
          {n.children.length > 0 && <Tree nodes={n.children} selected={props.selected} onSelect={props.onSelect} />}
        </li>
      ))}
    </ul>
  );
}

function Taxonomy() {
  const { project, can } = useProject();
  const q = { project_id: project.id };
  const tree = useLoad(() => ok(api.GET('/api/taxonomy', { params: { query: q } })), [project.id]);
  const links = useLoad(
    () =>
      wholeList('links', (cursor) =>
        ok(api.GET('/api/context/business-links', { params: { query: { ...q, limit: 500, cursor } } })),
      ),
    [project.id],
  );
  const [selected, setSelected] = useState<string | undefined>(route.get().query.get('key') ?? undefined);
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageTitle sub={tree.data && <span class="muted">{tree.data.key_count} keys</span>}>Taxonomy</PageTitle>
      <ErrorBox error={tree.error} />
      {tree.loading && !tree.data && <Loading what="the key tree" />}
      <div class="split">
        <nav class="tree card" aria-label="Business keys" data-loaded={tree.data ? 'true' : undefined}>
          {tree.data && (
            <Tree
              nodes={tree.data.roots}
              selected={selected}
              onSelect={(k) => {
                setCreating(false);
                setSelected(k);
              }}
            />
          )}
          {can('context.write') && (
            <button type="button" class="action" onClick={() => setCreating(true)}>
              New key
            </button>
          )}
        </nav>
        <div class="stack">
          {creating && (
            <KeyForm
              onSaved={(k) => {
                setCreating(false);
                setSelected(k);
                tree.reload();
              }}
            />
          )}
          {!creating && selected && (
            <KeyPanel
              key={selected}
              keyName={selected}
              links={(links.data?.links ?? []).filter((l) => l.business_key === selected)}
              onChanged={(next) => {
                setSelected(next);
                tree.reload();
                links.reload();
              }}
            />
          )}
          {!creating && !selected && <p class="muted">Pick a key to see what explains it.</p>}
        </div>
      </div>
    </>
  );
}

function KeyForm(props: { existing?: Key; onSaved(key: string | undefined): void }) {
  const { project } = useProject();
  const e = props.existing;
  const [form, setForm] = useState({
    key: e?.key ?? '',
    label: e?.label ?? '',
    description: e?.description ?? '',
    parent: e?.parent ?? '',
    synonyms: e?.synonyms.join(', ') ?? '',
  });
  const synonyms = form.synonyms
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const save = useSubmit(
    () =>
      e
        ? ok(
            api.PUT('/api/taxonomy/keys/{key}', {
              params: { path: { key: e.key }, query: { project_id: project.id } },
              body: { label: form.label, description: form.description || null, parent: form.parent || null, synonyms },
            }),
          )
        : ok(
            api.POST('/api/taxonomy/keys', {
              body: {
                project_id: project.id,
                key: form.key,
                label: form.label,
                ...(form.description ? { description: form.description } : {}),
                parent: form.parent || null,
                synonyms,
              },
            }),
          ),
    (saved) => props.onSaved(saved.key),
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Edit ${e.key}` : 'New key'}>
      <h2>{e ? `Edit ${e.key}` : 'New key'}</h2>
      {!e && (
        <Field label="Key" error={save.fieldError('key')} hint="dotted, e.g. kpi.margin">
          {(a) => <input {...a} value={form.key} onInput={set('key')} />}
        </Field>
      )}
      <Field label="Label" error={save.fieldError('label')}>
        {(a) => <input {...a} value={form.label} onInput={set('label')} />}
      </Field>
      <Field label="Parent key (moves the key)" error={save.fieldError('parent')}>
        {(a) => <input {...a} value={form.parent} onInput={set('parent')} />}
      </Field>
      <Field label="Description" error={save.fieldError('description')}>
        {(a) => <input {...a} value={form.description} onInput={set('description')} />}
      </Field>
      <Field label="Synonyms (comma-separated)" error={save.fieldError('synonyms')}>
        {(a) => <input {...a} value={form.synonyms} onInput={set('synonyms')} />}
      </Field>
      <ErrorBox error={save.error} />
      <button type="submit" class="action primary" disabled={save.busy}>
        {e ? 'Save key' : 'Create key'}
      </button>
    </form>
  );
}

function KeyPanel(props: { keyName: string; links: Link[]; onChanged(next: string | undefined): void }) {
  const { project, can } = useProject();
  const q = { project_id: project.id };
  const key = useLoad(
    () => ok(api.GET('/api/taxonomy/keys/{key}', { params: { path: { key: props.keyName }, query: q } })),
    [props.keyName],
  );
  const [editing, setEditing] = useState(false);
  const remove = useSubmit(
    async () => {
      if (!confirm(`Delete the key ${props.keyName}?`)) return false;
      await ok(api.DELETE('/api/taxonomy/keys/{key}', { params: { path: { key: props.keyName }, query: q } }));
      return true;
    },
    (done) => done && props.onChanged(undefined),
  );
  const [unlinkError, setUnlinkError] = useState<unknown>(null);
  const k = key.data;
  if (key.error) return <ErrorBox error={key.error} />;
  if (!k) return <Loading what="the key" />;
  if (editing)
    return (
      <KeyForm
        existing={k}
        onSaved={() => {
          setEditing(false);
          key.reload();
          props.onChanged(k.key);
        }}
      />
    );
  return (
    <section class="card stack" aria-label={`Key ${k.key}`}>
      <div class="spread">
        <h2>{k.label}</h2>
        {can('context.write') && (
          <div class="row">
            <button type="button" class="action" onClick={() => setEditing(true)}>
              Edit key
            </button>
            <button type="button" class="action danger" onClick={remove.submit}>
              Delete key
            </button>
          </div>
        )}
      </div>
      <dl class="facts">
        <dt>Key</dt>
        <dd class="mono">{k.key}</dd>
        <dt>Parent</dt>
        <dd class="mono">{k.parent ?? '–'}</dd>
        <dt>Description</dt>
        <dd>{k.description ?? '–'}</dd>
        <dt>Synonyms</dt>
        <dd>{k.synonyms.join(', ') || '–'}</dd>
      </dl>
      <ErrorBox error={remove.error ?? unlinkError} />
      <h3>Explained by and used in</h3>
      {props.links.length === 0 && <p class="muted small">No sheet or Skill links to this key.</p>}
      <ul class="plain stack" aria-label="Links">
        {props.links.map((l) => (
          <li key={l.id} class="row">
            <span class="badge">{l.relation_type}</span> {l.source_type} <span class="mono">{l.source_key}</span>
            {can('context.write') && (
              <button
                type="button"
                class="action small"
                aria-label={`Remove link from ${l.source_key}`}
                onClick={() =>
                  ok(api.DELETE('/api/context/business-links/{id}', { params: { path: { id: l.id }, query: q } })).then(
                    () => props.onChanged(k.key),
                    setUnlinkError,
                  )
                }
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {can('context.write') && <LinkForm businessKey={k.key} onLinked={() => props.onChanged(k.key)} />}
    </section>
  );
}

function LinkForm(props: { businessKey: string; onLinked(): void }) {
  const { project } = useProject();
  const [form, setForm] = useState({ relation_type: 'explains', source_type: 'knowledge', source_id: '' });
  const save = useSubmit(
    () =>
      ok(
        api.POST('/api/context/business-links', {
          body: {
            project_id: project.id,
            relation_type: form.relation_type as 'explains',
            source_type: form.source_type as 'knowledge',
            source_id: form.source_id,
            business_key: props.businessKey,
          },
        }),
      ),
    () => {
      setForm({ ...form, source_id: '' });
      props.onLinked();
    },
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="stack" onSubmit={save.submit} aria-label="Add a link">
      <h3>Add a link</h3>
      <div class="form-grid">
        <Field label="Relation" error={save.fieldError('relation_type')}>
          {(a) => (
            <select {...a} value={form.relation_type} onChange={set('relation_type')}>
              <option value="explains">explains</option>
              <option value="uses">uses</option>
              <option value="related_to">related_to</option>
            </select>
          )}
        </Field>
        <Field label="From" error={save.fieldError('source_type')}>
          {(a) => (
            <select {...a} value={form.source_type} onChange={set('source_type')}>
              <option value="knowledge">Knowledge sheet</option>
              <option value="skill">Skill</option>
            </select>
          )}
        </Field>
        <Field label="Sheet topic or Skill name" error={save.fieldError('source_id')}>
          {(a) => <input {...a} value={form.source_id} onInput={set('source_id')} />}
        </Field>
      </div>
      <ErrorBox error={save.error} />
      <button type="submit" class="action primary" disabled={save.busy}>
        Link
      </button>
    </form>
  );
}

export const sections = { taxonomy: Taxonomy };
