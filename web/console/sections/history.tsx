import { useRef, useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { navigate } from '../router.js';
import { ErrorBox, Loading, useLoad, useProject, useSubmit, TableWrap } from '../ui.js';
import { AuthorLine, DiffTable, type KnowledgeDiff, ParsedChanges, type SkillDiff } from './diff-view.js';
import { proposalsChanged } from '../pending.js';

// A Skill's or sheet's versions with who wrote each, a diff of any two, and restore.

type Target = { kind: 'skill'; name: string } | { kind: 'knowledge'; topic: string };
interface Version {
  version: number;
  label: string;
  author: Parameters<typeof AuthorLine>[0]['author'];
  at: string;
}

function useVersions(target: Target, current: number) {
  const { project } = useProject();
  const query = { project_id: project.id, limit: 200 };
  return useLoad(async (): Promise<Version[]> => {
    if (target.kind === 'skill') {
      const r = await ok(api.GET('/api/skills/{name}/versions', { params: { path: { name: target.name }, query } }));
      return r.versions.map((v) => ({ version: v.version, label: v.description, author: v.author, at: v.created_at }));
    }
    const r = await ok(
      api.GET('/api/knowledge/{topic_id}/versions', { params: { path: { topic_id: target.topic }, query } }),
    );
    return r.versions.map((v) => ({ version: v.version_number, label: v.title, author: v.author, at: v.created_at }));
  }, [project.id, target.kind === 'skill' ? target.name : target.topic, current]);
}

/**
 * The History tab: versions newest first (author, channel, client, time), open one, compare two,
 * restore one as the next version (a proposal when the project reviews the caller's writes).
 */
export function VersionHistory(props: {
  target: Target;
  current: number;
  onOpen(version: number): void;
  onRestored(version: number): void;
}) {
  const { project, can } = useProject();
  const versions = useVersions(props.target, props.current);
  const [pair, setPair] = useState({ from: Math.max(1, props.current - 1), to: props.current });
  const [shown, setShown] = useState<{ from: number; to: number } | null>(null);
  const restoring = useRef(0);
  const restore = useSubmit(
    async () => {
      const version = restoring.current;
      const q = { query: { project_id: project.id } };
      return props.target.kind === 'skill'
        ? ok(
            api.POST('/api/skills/{name}/restore', {
              params: { path: { name: props.target.name }, ...q },
              body: { version },
            }),
          )
        : ok(
            api.POST('/api/knowledge/{topic_id}/restore', {
              params: { path: { topic_id: props.target.topic }, ...q },
              body: { version },
            }),
          );
    },
    (written) => {
      if ('proposal_id' in written) {
        proposalsChanged.set(proposalsChanged.get() + 1);
        navigate(`${project.id}/proposals/${written.proposal_id}`);
      } else props.onRestored('version' in written ? written.version : written.version_number);
    },
  );
  const list = versions.data ?? [];
  return (
    <div class="stack" data-loaded={versions.data ? 'true' : undefined}>
      <ErrorBox error={versions.error ?? restore.error} />
      {versions.loading && !versions.data && <Loading what="the versions" />}
      <TableWrap>
        <table>
          <caption class="visually-hidden">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">{props.target.kind === 'skill' ? 'Description' : 'Title'}</th>
              <th scope="col">Written by</th>
              {can('context.write') && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {list.map((v) => (
              <tr key={v.version}>
                <td>
                  <button type="button" class="link" onClick={() => props.onOpen(v.version)}>
                    Version {v.version}
                  </button>
                  {v.version === props.current && <span class="muted small"> (current)</span>}
                </td>
                <td>{v.label}</td>
                <td>
                  <AuthorLine author={v.author} at={v.at} />
                </td>
                {can('context.write') && (
                  <td>
                    {v.version !== props.current && (
                      <button
                        type="button"
                        class="action"
                        disabled={restore.busy}
                        onClick={() => {
                          restoring.current = v.version;
                          void restore.submit();
                        }}
                      >
                        Restore this version<span class="visually-hidden"> ({v.version})</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {list.length > 1 && (
        <form
          class="row compare"
          aria-label="Pick two versions"
          onSubmit={(e) => {
            e.preventDefault();
            setShown({ ...pair });
          }}
        >
          {(['from', 'to'] as const).map((end) => (
            <div class="field" key={end}>
              <label for={`compare-${end}`}>{end === 'from' ? 'Compare version' : 'with version'}</label>
              <select
                id={`compare-${end}`}
                value={pair[end]}
                onChange={(e) => setPair({ ...pair, [end]: Number(e.currentTarget.value) })}
              >
                {list.map((v) => (
                  <option key={v.version} value={v.version}>
                    {v.version}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <button type="submit" class="action">
            Compare
          </button>
        </form>
      )}
      {shown && <VersionDiff target={props.target} from={shown.from} to={shown.to} />}
    </div>
  );
}

function VersionDiff(props: { target: Target; from: number; to: number }) {
  const { project } = useProject();
  const t = props.target;
  const diff = useLoad(async (): Promise<SkillDiff | (KnowledgeDiff & Partial<SkillDiff>)> => {
    const query = { project_id: project.id, from: props.from, to: props.to };
    if (t.kind === 'skill')
      return ok(api.GET('/api/skills/{name}/diff', { params: { path: { name: t.name }, query } }));
    return ok(api.GET('/api/knowledge/{topic_id}/diff', { params: { path: { topic_id: t.topic }, query } }));
  }, [project.id, t.kind === 'skill' ? t.name : t.topic, props.from, props.to]);
  const d = diff.data;
  return (
    <section class="card stack" aria-labelledby="diff-title" data-testid="version-diff">
      <h2 id="diff-title">
        Version {props.from} → version {props.to}
      </h2>
      <ErrorBox error={diff.error} />
      {!d && diff.loading && <Loading what="the diff" />}
      {d && (
        <>
          <ParsedChanges fields={d.fields} steps={d.steps} acceptance={d.acceptance} references={d.references} />
          <h3>Body</h3>
          <DiffTable
            unified={d.unified_diff}
            from={`Version ${d.from_version}`}
            to={`Version ${d.to_version}`}
            label={`Body, version ${d.from_version} against version ${d.to_version}`}
          />
        </>
      )}
    </section>
  );
}
