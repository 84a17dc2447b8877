import { useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { ErrorBox, PageTitle, useProject, useSubmit } from '../ui.js';
import { useLinks } from './common.js';
import './review.css';

// The project's settings page, where its admins set how agents' writes land.

type Policy = 'publish' | 'review' | 'off';
const POLICIES: { id: Policy; label: string; explain: string }[] = [
  {
    id: 'publish',
    label: 'Publish',
    explain: 'An agent’s add_skill or add_knowledge writes the next version at once (the default).',
  },
  {
    id: 'review',
    label: 'Review',
    explain:
      'Agent writes, and edits by members who may not review, become proposals; a project admin approves ' +
      '(publishing the next version) or rejects them under Proposals. Admins’ own edits publish directly.',
  },
  {
    id: 'off',
    label: 'Off',
    explain: 'Agents may not write Skills or Knowledge: the MCP tools refuse (agent_writes_off). People still can.',
  },
];

function ProjectSettings() {
  const { project, can } = useProject();
  const link = useLinks();
  // The shell loaded the project once; what a save answers is newer.
  const [saved, setSaved] = useState<Policy>(project.agent_writes);
  const [choice, setChoice] = useState<Policy>(project.agent_writes);
  const admin = can('admin');
  const save = useSubmit(
    () => ok(api.PATCH('/api/projects/{id}', { params: { path: { id: project.id } }, body: { agent_writes: choice } })),
    (p) => {
      setSaved(p.agent_writes);
      setChoice(p.agent_writes);
    },
  );
  const current = POLICIES.find((p) => p.id === saved)!;
  return (
    <>
      <PageTitle>Project settings</PageTitle>
      <div class="stack" data-loaded="true">
        <dl class="facts">
          <dt>Project</dt>
          <dd>
            {project.name} <span class="mono small">{project.id}</span>
          </dd>
          <dt>Reporting currency</dt>
          <dd>{project.reporting_currency}</dd>
          <dt>Time zone</dt>
          <dd>{project.timezone}</dd>
          <dt>Agent writes</dt>
          <dd data-testid="agent-writes">
            <strong>{current.label}</strong>: {current.explain}
          </dd>
        </dl>
        {admin ? (
          <form class="card stack" onSubmit={save.submit} aria-label="Agent writes">
            <fieldset class="policy-options">
              <legend>How agents’ writes land</legend>
              {POLICIES.map((p) => (
                <label key={p.id}>
                  <input
                    type="radio"
                    name="agent_writes"
                    value={p.id}
                    checked={choice === p.id}
                    onChange={() => setChoice(p.id)}
                  />{' '}
                  <strong>{p.label}</strong>: <span>{p.explain}</span>
                </label>
              ))}
            </fieldset>
            <ErrorBox error={save.error} />
            <div class="row">
              <button type="submit" class="action primary" disabled={save.busy || choice === saved}>
                Save agent writes
              </button>
              {saved === 'review' && <a href={link('proposals')}>Review proposals</a>}
            </div>
          </form>
        ) : (
          <p class="muted small">Only the project’s admins change how agents’ writes land.</p>
        )}
      </div>
    </>
  );
}

export const sections = { settings: ProjectSettings };
