import { useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { useDraft } from '../drafts.js';
import { navigate } from '../router.js';
import {
  DataTable,
  ErrorBox,
  Field,
  Loading,
  PageTitle,
  Tabs,
  useLoad,
  useProject,
  useSubmit,
  TableWrap,
} from '../ui.js';
import { choicesOf, wholeList } from '../pages.js';
import { Instant, useLinks } from './common.js';
import { Markdown, Preview } from './editor.js';
import { VersionHistory } from './history.js';
import { useVersionPage } from './version-page.js';

function KnowledgeList() {
  const { project, can } = useProject();
  const link = useLinks();
  const [filter, setFilter] = useState('');
  const [owner, setOwner] = useState('');
  const list = useLoad(
    () =>
      wholeList('knowledge', (cursor) =>
        ok(api.GET('/api/knowledge', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const sheets = list.data?.knowledge ?? [];
  const owners = choicesOf(sheets.map((k) => k.owner));
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = sheets.filter(
    (k) =>
      (!owner || k.owner === owner) &&
      words.every((w) => `${k.topic_id} ${k.title} ${k.owner ?? ''}`.toLowerCase().includes(w)),
  );
  return (
    <>
      <PageTitle>Knowledge</PageTitle>
      <div class="row">
        <Field label="Search sheets">
          {(attrs) => (
            <input {...attrs} type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Owned by">
          {(attrs) => (
            <select {...attrs} value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
              <option value="">Any owner</option>
              {owners.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {list.data?.truncated && <p class="notice small">Showing the first {sheets.length} sheets.</p>}
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="knowledge" />}
      {list.data && (
        <TableWrap>
          <DataTable
            caption={`Knowledge sheets of ${project.name}`}
            columns={['Title', 'Topic', 'Owner', { num: 'Version' }, 'Updated']}
            data-loaded="true"
          >
            {shown.map((k) => (
              <tr key={k.id}>
                <td>
                  <a href={link(`knowledge/${k.topic_id}`)}>{k.title}</a>
                </td>
                <td class="mono small">{k.topic_id}</td>
                <td>{k.owner ?? '–'}</td>
                <td class="num">{k.version_number}</td>
                <td>
                  <Instant at={k.updated_at} />
                </td>
              </tr>
            ))}
          </DataTable>
          {shown.length === 0 && <p class="muted">No sheet matches.</p>}
        </TableWrap>
      )}
      {can('context.write') && <NewSheet />}
    </>
  );
}

function NewSheet() {
  const { project } = useProject();
  const [form, setForm, clear] = useDraft(`new-sheet:${project.id}`, {
    title: '',
    topic_id: '',
    owner: '',
    body_md: '',
  });
  const save = useSubmit(
    () =>
      ok(
        api.POST('/api/knowledge', {
          body: {
            project_id: project.id,
            title: form.title,
            body_md: form.body_md,
            ...(form.topic_id ? { topic_id: form.topic_id } : {}),
            ...(form.owner ? { owner: form.owner } : {}),
          },
        }),
      ),
    (sheet) => {
      clear();
      // Under review the save is a proposal, not a version: show the proposal.
      if ('proposal_id' in sheet) navigate(`${project.id}/proposals/${sheet.proposal_id}`);
      else navigate(`${project.id}/knowledge/${sheet.topic_id}`);
    },
  );
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  return (
    <details class="card">
      <summary>New sheet</summary>
      <form onSubmit={save.submit} class="stack">
        <div class="form-grid">
          <Field label="Title" error={save.fieldError('title')}>
            {(a) => <input {...a} value={form.title} onInput={set('title')} />}
          </Field>
          <Field label="Topic id (optional)" error={save.fieldError('topic_id')}>
            {(a) => <input {...a} value={form.topic_id} onInput={set('topic_id')} />}
          </Field>
          <Field label="Owner (optional)" error={save.fieldError('owner')}>
            {(a) => <input {...a} value={form.owner} onInput={set('owner')} />}
          </Field>
        </div>
        <Field label="Body (Markdown)" error={save.fieldError('body_md')}>
          {(a) => <textarea {...a} value={form.body_md} onInput={set('body_md')} />}
        </Field>
        <ErrorBox error={save.error} />
        <button type="submit" class="action primary" disabled={save.busy}>
          Create sheet
        </button>
      </form>
    </details>
  );
}

function SheetPage(props: { topic: string }) {
  const { project, can } = useProject();
  const link = useLinks();
  const page = useVersionPage();
  const { tab, version, notice } = page;
  const q = { project_id: project.id };
  const path = { topic_id: props.topic };
  const sheet = useLoad(
    () => ok(api.GET('/api/knowledge/{topic_id}', { params: { path, query: { ...q, version } } })),
    [props.topic, version, project.id],
  );
  const remove = useSubmit(
    async () => {
      if (!confirm(`Delete the sheet ${props.topic}?`)) return false;
      await ok(api.DELETE('/api/knowledge/{topic_id}', { params: { path, query: q } }));
      return true;
    },
    (deleted) => deleted && navigate(`${project.id}/knowledge`),
  );
  const k = sheet.data;
  const tabs = [
    { id: 'view', label: 'View' },
    ...(can('context.write') ? [{ id: 'edit', label: 'Edit' }] : []),
    { id: 'history', label: 'History' },
  ];
  return (
    <>
      <PageTitle
        sub={
          can('context.write') && (
            <button type="button" class="action danger" onClick={remove.submit} disabled={remove.busy}>
              Delete
            </button>
          )
        }
      >
        {k?.title ?? props.topic}
      </PageTitle>
      <p class="small">
        <a href={link('knowledge')}>All knowledge</a>
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorBox error={sheet.error ?? remove.error} />
      {!k && sheet.loading && <Loading what="the sheet" />}
      {k && (
        <>
          <p class="muted">
            <span class="mono">{k.topic_id}</span> · version {k.version_number} of {k.current_version} · owner{' '}
            {k.owner ?? '–'} · <Instant at={k.created_at} />
          </p>
          <Tabs tabs={tabs} current={tab} onChange={page.setTab} />
          {tab === 'view' && (
            <article class="card" data-loaded="true">
              <Markdown source={k.body_md} />
            </article>
          )}
          {tab === 'edit' && (
            <SheetEditor
              key={`${k.topic_id}:${k.current_version}`}
              topic={k.topic_id}
              initial={{ title: k.title, owner: k.owner ?? '', body_md: k.body_md }}
              onSaved={(v) => page.wrote('Saved', v, sheet.reload)}
            />
          )}
          {tab === 'history' && (
            <VersionHistory
              target={{ kind: 'knowledge', topic: k.topic_id }}
              current={k.current_version}
              onOpen={page.open}
              onRestored={(v) => page.wrote('Restored', v, sheet.reload)}
            />
          )}
        </>
      )}
    </>
  );
}

function SheetEditor(props: {
  topic: string;
  initial: { title: string; owner: string; body_md: string };
  onSaved(version: number): void;
}) {
  const { project } = useProject();
  const [draft, setDraft, clear, restored] = useDraft(`sheet:${project.id}:${props.topic}`, props.initial);
  const save = useSubmit(
    () =>
      ok(
        api.PUT('/api/knowledge/{topic_id}', {
          params: { path: { topic_id: props.topic }, query: { project_id: project.id } },
          body: { title: draft.title, body_md: draft.body_md, owner: draft.owner || null },
        }),
      ),
    (saved) => {
      clear();
      if ('proposal_id' in saved) navigate(`${project.id}/proposals/${saved.proposal_id}`);
      else props.onSaved(saved.version_number);
    },
  );
  const set = (k: keyof typeof draft) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [k]: e.currentTarget.value });
  return (
    <form onSubmit={save.submit} class="stack">
      {restored && <p class="notice small">Your unsaved draft was restored.</p>}
      <div class="form-grid">
        <Field label="Title" error={save.fieldError('title')}>
          {(a) => <input {...a} value={draft.title} onInput={set('title')} />}
        </Field>
        <Field label="Owner" error={save.fieldError('owner')}>
          {(a) => <input {...a} value={draft.owner} onInput={set('owner')} />}
        </Field>
      </div>
      <div class="split">
        <Field label="Body (Markdown)" error={save.fieldError('body_md')}>
          {(a) => <textarea {...a} value={draft.body_md} onInput={set('body_md')} />}
        </Field>
        <Preview body={draft.body_md} showSteps={false} />
      </div>
      <ErrorBox error={save.error} />
      <button type="submit" class="action primary" disabled={save.busy}>
        Save as next version
      </button>
    </form>
  );
}

function Knowledge() {
  const { path } = useProject();
  return path[1] ? <SheetPage topic={path[1]} /> : <KnowledgeList />;
}

export const sections = { knowledge: Knowledge };
