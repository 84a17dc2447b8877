import { useState } from 'preact/hooks';
import { api, ok, rawFetch } from '../api.js';
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
import { download, Markdown, ParsedView, Preview, References } from './editor.js';
import { VersionHistory } from './history.js';
import { SkillPrompt } from './skill-prompt.js';
import { useVersionPage } from './version-page.js';

const TEMPLATE =
  '## Steps\n\n1. First step, using [[kpi.roas]].\n2. Second step.\n\n## Acceptance\n\n- What done means.\n';

function SkillList() {
  const { project, can } = useProject();
  const link = useLinks();
  const [filter, setFilter] = useState('');
  const [key, setKey] = useState('');
  const list = useLoad(
    () =>
      wholeList('skills', (cursor) =>
        ok(api.GET('/api/skills', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const skills = list.data?.skills ?? [];
  const keys = choicesOf(skills.flatMap((s) => s.mdm_references));
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = skills.filter(
    (s) =>
      (!key || s.mdm_references.includes(key)) &&
      words.every((w) => `${s.name} ${s.description} ${s.mdm_references.join(' ')}`.toLowerCase().includes(w)),
  );
  const [importError, setImportError] = useState<unknown>(null);
  const importFile = async (file: File) => {
    setImportError(null);
    try {
      const res = await rawFetch(`/api/skills/import?project_id=${encodeURIComponent(project.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'text/markdown' },
        body: await file.text(),
      });
      const skill = (await res.json()) as { name: string };
      navigate(`${project.id}/skills/${skill.name}`);
    } catch (e) {
      setImportError(e);
    }
  };
  return (
    <>
      <PageTitle>Skills</PageTitle>
      <div class="row">
        <Field label="Search skills">
          {(attrs) => (
            <input {...attrs} type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Uses business key">
          {(attrs) => (
            <select {...attrs} value={key} onChange={(e) => setKey(e.currentTarget.value)}>
              <option value="">Any key</option>
              {keys.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
        {can('context.write') && (
          <Field label="Import a SKILL.md">
            {(attrs) => (
              <input
                {...attrs}
                type="file"
                accept=".md,text/markdown"
                onChange={(e) => {
                  const file = e.currentTarget.files?.[0];
                  if (file) void importFile(file);
                }}
              />
            )}
          </Field>
        )}
      </div>
      <ErrorBox error={importError} />
      <ErrorBox error={list.error} />
      {list.data?.truncated && <p class="notice small">Showing the first {skills.length} skills.</p>}
      {list.loading && !list.data && <Loading what="skills" />}
      {list.data && (
        <TableWrap>
          <DataTable
            caption={`Skills of ${project.name}`}
            columns={['Name', 'Description', { num: 'Version' }, 'Updated']}
            data-loaded="true"
          >
            {shown.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={link(`skills/${s.name}`)}>{s.name}</a>
                </td>
                <td class="prose-cell">
                  <Markdown source={s.description} inline />
                </td>
                <td class="num">{s.version}</td>
                <td>
                  <Instant at={s.updated_at} />
                </td>
              </tr>
            ))}
          </DataTable>
          {shown.length === 0 && <p class="muted">No skill matches.</p>}
        </TableWrap>
      )}
      {can('context.write') && <NewSkill />}
    </>
  );
}

function NewSkill() {
  const { project } = useProject();
  const [form, setForm, clear] = useDraft(`new-skill:${project.id}`, { name: '', description: '', body_md: TEMPLATE });
  const save = useSubmit(
    () => ok(api.POST('/api/skills', { body: { project_id: project.id, ...form } })),
    (skill) => {
      clear();
      // Under review the save is a proposal, not a version: show the proposal.
      if ('proposal_id' in skill) navigate(`${project.id}/proposals/${skill.proposal_id}`);
      else navigate(`${project.id}/skills/${skill.name}`);
    },
  );
  return (
    <details class="card">
      <summary>New skill</summary>
      <form onSubmit={save.submit} class="stack">
        <div class="form-grid">
          <Field label="Name" error={save.fieldError('name')} hint="lowercase-with-hyphens">
            {(a) => (
              <input {...a} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            )}
          </Field>
          <Field label="Description" error={save.fieldError('description')}>
            {(a) => (
              <input
                {...a}
                value={form.description}
                onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
              />
            )}
          </Field>
        </div>
        <Field label="Body (Markdown)" error={save.fieldError('body_md')}>
          {(a) => (
            <textarea
              {...a}
              value={form.body_md}
              onInput={(e) => setForm({ ...form, body_md: e.currentTarget.value })}
            />
          )}
        </Field>
        <ErrorBox error={save.error} />
        <button type="submit" class="action primary" disabled={save.busy}>
          Create skill
        </button>
      </form>
    </details>
  );
}

function SkillPage(props: { name: string }) {
  const { project, can } = useProject();
  const link = useLinks();
  const page = useVersionPage();
  const { tab, version, notice } = page;
  const q = { project_id: project.id };
  const skill = useLoad(
    () => ok(api.GET('/api/skills/{name}', { params: { path: { name: props.name }, query: { ...q, version } } })),
    [props.name, version, project.id],
  );
  const exportFile = async () => {
    const res = await rawFetch(
      `/api/skills/${props.name}/SKILL.md?project_id=${encodeURIComponent(project.id)}${version ? `&version=${version}` : ''}`,
    );
    download(`${props.name}.SKILL.md`, await res.text(), 'text/markdown');
  };
  const remove = useSubmit(
    async () => {
      if (!confirm(`Delete the skill ${props.name}? Agents no longer find it.`)) return false;
      await ok(api.DELETE('/api/skills/{name}', { params: { path: { name: props.name }, query: q } }));
      return true;
    },
    (deleted) => deleted && navigate(`${project.id}/skills`),
  );
  const s = skill.data;
  const tabs = [
    { id: 'view', label: 'View' },
    ...(can('context.write') ? [{ id: 'edit', label: 'Edit' }] : []),
    { id: 'history', label: 'History' },
  ];
  return (
    <>
      <PageTitle
        sub={
          <div class="row">
            <button type="button" class="action" onClick={exportFile}>
              Export SKILL.md
            </button>
            {can('context.write') && (
              <button type="button" class="action danger" onClick={remove.submit} disabled={remove.busy}>
                Delete
              </button>
            )}
          </div>
        }
      >
        {props.name}
      </PageTitle>
      <p class="small">
        <a href={link('skills')}>All skills</a>
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorBox error={skill.error ?? remove.error} />
      {!s && skill.loading && <Loading what="the skill" />}
      {s && (
        <>
          <p class="muted">
            <span data-testid="skill-version">
              Version {s.version} of {s.current_version}
            </span>{' '}
            · {s.created_by} · <Instant at={s.created_at} />
          </p>
          <Tabs tabs={tabs} current={tab} onChange={page.setTab} />
          {tab === 'view' && (
            <div class="split" data-loaded="true">
              <section class="stack" aria-label="Parsed procedure">
                <p data-testid="skill-description">
                  <Markdown source={s.description} inline />
                </p>
                <ParsedView steps={s.steps} acceptance={s.acceptance} showSteps />
                <h3>References</h3>
                <References keys={s.mdm_references} unresolved={s.unresolved_references} />
                <SkillPrompt name={s.name} version={s.current_version} />
              </section>
              <section class="card" aria-label="Body">
                <Markdown source={s.body_md} />
              </section>
            </div>
          )}
          {tab === 'edit' && (
            <SkillEditor
              key={`${s.name}:${s.current_version}`}
              name={s.name}
              description={s.description}
              body={s.body_md}
              onSaved={(v) => page.wrote('Saved', v, skill.reload)}
            />
          )}
          {tab === 'history' && (
            <VersionHistory
              target={{ kind: 'skill', name: s.name }}
              current={s.current_version}
              onOpen={page.open}
              onRestored={(v) => page.wrote('Restored', v, skill.reload)}
            />
          )}
        </>
      )}
    </>
  );
}

function SkillEditor(props: { name: string; description: string; body: string; onSaved(version: number): void }) {
  const { project } = useProject();
  const [draft, setDraft, clear, restored] = useDraft(`skill:${project.id}:${props.name}`, {
    description: props.description,
    body_md: props.body,
  });
  const save = useSubmit(
    () =>
      ok(
        api.PUT('/api/skills/{name}', {
          params: { path: { name: props.name }, query: { project_id: project.id } },
          body: draft,
        }),
      ),
    (saved) => {
      clear();
      if ('proposal_id' in saved) navigate(`${project.id}/proposals/${saved.proposal_id}`);
      else props.onSaved(saved.version);
    },
  );
  return (
    <form onSubmit={save.submit} class="stack">
      {restored && <p class="notice small">Your unsaved draft was restored.</p>}
      <Field label="Description" error={save.fieldError('description')}>
        {(a) => (
          <input
            {...a}
            value={draft.description}
            onInput={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          />
        )}
      </Field>
      <div class="split">
        <Field label="Body (Markdown)" error={save.fieldError('body_md')}>
          {(a) => (
            <textarea
              {...a}
              value={draft.body_md}
              onInput={(e) => setDraft({ ...draft, body_md: e.currentTarget.value })}
            />
          )}
        </Field>
        <Preview body={draft.body_md} showSteps />
      </div>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          Save as next version
        </button>
        <button
          type="button"
          class="action"
          onClick={() => {
            setDraft({ description: props.description, body_md: props.body });
            clear();
          }}
        >
          Discard changes
        </button>
      </div>
    </form>
  );
}

function Skills() {
  const { path } = useProject();
  return path[1] ? <SkillPage name={path[1]} /> : <SkillList />;
}

export const sections = { skills: Skills };
