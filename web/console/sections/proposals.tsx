import { useState } from 'preact/hooks';
import { api, ApiError, ok, type Res } from '../api.js';
import { proposalsChanged } from '../pending.js';
import { navigate, route } from '../router.js';
import { useStore } from '../store.js';
import { ErrorBox, Field, Loading, PageTitle, StatusBadge, useLoad, useProject, useSubmit, TableWrap } from '../ui.js';
import { Instant, useLinks } from './common.js';
import { AuthorLine, DiffTable, ParsedChanges } from './diff-view.js';
import { useProposedChanges } from './proposal-changes.js';

// The review screen. /console/<project>/proposals lists proposals by status, newest
// first; /console/<project>/proposals/<id> shows one with its diffs and the decision.

type ListItem = Res<'/api/proposals', 'get'>['proposals'][number];
const STATUSES = ['pending', 'approved', 'rejected', 'superseded', 'withdrawn'] as const;
type Status = (typeof STATUSES)[number];

/** Project admins hold `context.review` (the console's role table names it by its scope, admin). */
const useCanReview = () => useProject().can('context.review');

const objectOf = (p: Pick<ListItem, 'kind' | 'name' | 'topic_id'>) =>
  p.kind === 'skill'
    ? { label: 'Skill', key: p.name ?? '', path: `skills/${p.name}` }
    : {
        label: 'Knowledge',
        key: p.topic_id ?? '',
        path: `knowledge/${p.topic_id}`,
      };

/** "3 min ago": how long a proposal has waited; the exact instant is in the cell's title. */
function age(at: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

function ProposalList() {
  const { project } = useProject();
  const link = useLinks();
  const r = useStore(route);
  const param = r.query.get('status');
  const status: Status | 'all' =
    param === 'all' ? 'all' : STATUSES.includes(param as Status) ? (param as Status) : 'pending';
  const bump = useStore(proposalsChanged);
  const list = useLoad(
    () =>
      ok(
        api.GET('/api/proposals', {
          params: {
            query: { project_id: project.id, limit: 200, ...(status === 'all' ? {} : { status }) },
          },
        }),
      ),
    [project.id, status, bump],
  );
  const rows = list.data?.proposals ?? [];
  return (
    <>
      <PageTitle>Proposals</PageTitle>
      <p class="muted">
        Writes that wait for review: every agent write while the project’s <a href={link('settings')}>agent writes</a>{' '}
        policy is “review”, and edits by members who may not review.
      </p>
      <Field label="Status">
        {(a) => (
          <select
            {...a}
            value={status}
            onChange={(e) => navigate(`${project.id}/proposals?status=${e.currentTarget.value}`, true)}
          >
            {[...STATUSES, 'all'].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="proposals" />}
      {list.data && (
        <TableWrap>
          <table data-loaded="true">
            <caption class="visually-hidden">Proposals ({status}), newest first</caption>
            <thead>
              <tr>
                <th scope="col">Proposal</th>
                <th scope="col">Object</th>
                <th scope="col">Author</th>
                <th scope="col" class="num">
                  Base version
                </th>
                <th scope="col">Status</th>
                <th scope="col">Age</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => {
                const o = objectOf(p);
                return (
                  <tr key={p.id}>
                    <td>
                      <a href={link(`proposals/${p.id}`)} class="mono">
                        {p.id}
                      </a>
                    </td>
                    <td>
                      {o.label} <span class="mono">{o.key}</span>
                    </td>
                    <td>
                      <AuthorLine author={p.author} />
                    </td>
                    <td class="num">{p.base_version ?? 'new'}</td>
                    <td>
                      <StatusBadge status={p.status} />
                    </td>
                    <td title={p.created_at}>{age(p.created_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length === 0 && <p class="muted">No {status === 'all' ? '' : `${status} `}proposal.</p>}
          {list.data.next_cursor && <p class="muted small">The newest 200 are shown; pick a status to see others.</p>}
        </TableWrap>
      )}
    </>
  );
}

function ProposalPage(props: { id: string }) {
  const { me } = useProject();
  const link = useLinks();
  const canReview = useCanReview();
  const proposal = useLoad(
    () => ok(api.GET('/api/proposals/{id}', { params: { path: { id: props.id } } })),
    [props.id],
  );
  const p = proposal.data;
  const proposed = (p?.fields ?? {}) as Record<string, unknown>;
  const proposedBody = String(proposed.body_md ?? '');
  // The short fields a reviewer may change too, by kind (approve's edits refuse the other kind's).
  const shortFields: { name: 'description' | 'title' | 'owner'; label: string }[] =
    p?.kind === 'skill'
      ? [{ name: 'description', label: 'Description to publish' }]
      : [
          { name: 'title', label: 'Title to publish' },
          { name: 'owner', label: 'Owner to publish' },
        ];
  const [editedFields, setEditedFields] = useState<Record<string, string>>({});
  const changes = useProposedChanges(p);
  const [comment, setComment] = useState('');
  // The reviewer's own version of the body, when they change it before approving (approve's edits).
  const [edited, setEdited] = useState<string | null>(null);
  const decided = () => {
    setComment('');
    setEdited(null);
    setEditedFields({});
    proposalsChanged.set(proposalsChanged.get() + 1);
    proposal.reload();
  };
  const path = { params: { path: { id: props.id } } };
  const approval = (rebase: boolean) => () =>
    ok(
      api.POST('/api/proposals/{id}/approve', {
        ...path,
        body: {
          ...(comment.trim() ? { comment: comment.trim() } : {}),
          ...(rebase ? { rebase: true } : {}),
          ...(editsOf() ? { edits: editsOf() } : {}),
        },
      }),
    );
  /** Only what the reviewer changed; an emptied owner publishes no owner. */
  function editsOf(): Record<string, string | null> | undefined {
    const edits: Record<string, string | null> = {};
    if (edited !== null && edited !== proposedBody) edits.body_md = edited;
    for (const [name, value] of Object.entries(editedFields)) {
      if (value === String(proposed[name] ?? '')) continue;
      edits[name] = name === 'owner' && value.trim() === '' ? null : value;
    }
    return Object.keys(edits).length ? edits : undefined;
  }
  const approve = useSubmit(approval(false), decided);
  const rebase = useSubmit(approval(true), decided);
  const reject = useSubmit(() => ok(api.POST('/api/proposals/{id}/reject', { ...path, body: { comment } })), decided);
  const withdraw = useSubmit(() => ok(api.POST('/api/proposals/{id}/withdraw', { ...path, body: {} })), decided);
  // The object moved on after the page loaded: the 409 says so; show the stale state and the rebase.
  const staleNow = approve.error instanceof ApiError && approve.error.code === 'proposal_stale';
  const o = p && objectOf(p);
  const pending = p?.status === 'pending';
  const mine = p?.author.subject === me.subject;
  return (
    <>
      <PageTitle sub={p && <StatusBadge status={p.status} />}>{`Proposal ${props.id}`}</PageTitle>
      <p class="small">
        <a href={link('proposals')}>All proposals</a>
      </p>
      <ErrorBox error={proposal.error} />
      {!p && proposal.loading && <Loading what="the proposal" />}
      {p && o && (
        <div class="stack" data-loaded="true">
          <dl class="facts">
            <dt>Object</dt>
            <dd>
              {o.label}{' '}
              {p.current_version !== null ? (
                <a href={link(o.path)} class="mono">
                  {o.key}
                </a>
              ) : (
                <span class="mono">{o.key}</span>
              )}
            </dd>
            <dt>Author</dt>
            <dd>
              <AuthorLine author={p.author} at={p.created_at} />
            </dd>
            <dt>Base version</dt>
            <dd>{p.base_version ?? 'none (a new object)'}</dd>
            <dt>Current version</dt>
            <dd>{p.current_version ?? 'none'}</dd>
            {p.decided_by && (
              <>
                <dt>Decided by</dt>
                <dd>
                  {p.decided_by} · <Instant at={p.decided_at} />
                </dd>
              </>
            )}
            {p.comment && (
              <>
                <dt>Comment</dt>
                <dd data-testid="decision-comment">{p.comment}</dd>
              </>
            )}
            {p.published_version !== null && (
              <>
                <dt>Published as</dt>
                <dd>
                  <a href={link(o.path)}>version {p.published_version}</a>
                </dd>
              </>
            )}
            {p.superseded_by && (
              <>
                <dt>Superseded by</dt>
                <dd>
                  <a href={link(`proposals/${p.superseded_by}`)} class="mono">
                    {p.superseded_by}
                  </a>
                </dd>
              </>
            )}
          </dl>
          {pending && (p.stale || staleNow) && (
            <p class="notice" role="status">
              The {o.label.toLowerCase()} moved on since this proposal was written: it is at version {p.current_version}
              , the proposal was based on version {p.base_version}. Check the diff against the current version before
              approving on top of it.
            </p>
          )}
          {pending && (canReview || mine) && (
            <section class="card stack" aria-labelledby="decide">
              <h2 id="decide">{canReview ? 'Decision' : 'Your proposal'}</h2>
              {canReview && (
                <Field
                  label="Comment"
                  hint="Optional when approving; a rejection says why."
                  error={reject.fieldError('comment') ?? approve.fieldError('comment')}
                >
                  {(a) => (
                    <textarea {...a} class="short" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
                  )}
                </Field>
              )}
              {canReview && (
                <details>
                  <summary>Edit before approving</summary>
                  {shortFields.map((f) => (
                    <Field
                      key={f.name}
                      label={f.label}
                      error={approve.fieldError(`edits.${f.name}`) ?? rebase.fieldError(`edits.${f.name}`)}
                    >
                      {(a) => (
                        <input
                          {...a}
                          value={editedFields[f.name] ?? String(proposed[f.name] ?? '')}
                          onInput={(e) => setEditedFields({ ...editedFields, [f.name]: e.currentTarget.value })}
                        />
                      )}
                    </Field>
                  ))}
                  <Field
                    label="Body to publish (Markdown)"
                    hint="Approving publishes this text, still credited to the proposal's author."
                    error={approve.fieldError('edits.body_md') ?? rebase.fieldError('edits.body_md')}
                  >
                    {(a) => (
                      <textarea
                        {...a}
                        value={edited ?? proposedBody}
                        onInput={(e) => setEdited(e.currentTarget.value)}
                      />
                    )}
                  </Field>
                </details>
              )}
              <ErrorBox error={approve.error ?? rebase.error ?? reject.error ?? withdraw.error} />
              <div class="row">
                {canReview &&
                  (p.stale || staleNow ? (
                    <button type="button" class="action primary" disabled={rebase.busy} onClick={() => rebase.submit()}>
                      Approve on top of current (rebase)
                    </button>
                  ) : (
                    <button
                      type="button"
                      class="action primary"
                      disabled={approve.busy}
                      onClick={() => approve.submit()}
                    >
                      Approve
                    </button>
                  ))}
                {canReview && (
                  <button type="button" class="action danger" disabled={reject.busy} onClick={() => reject.submit()}>
                    Reject
                  </button>
                )}
                {mine && (
                  <button type="button" class="action" disabled={withdraw.busy} onClick={() => withdraw.submit()}>
                    Withdraw
                  </button>
                )}
              </div>
            </section>
          )}
          <section class="stack" aria-labelledby="changes">
            <h2 id="changes">What it changes</h2>
            <ErrorBox error={changes.error} />
            {changes.data && (
              <ParsedChanges
                fields={changes.data.fields}
                steps={'steps' in changes.data ? changes.data.steps : undefined}
                acceptance={'acceptance' in changes.data ? changes.data.acceptance : undefined}
                references={'references' in changes.data ? changes.data.references : undefined}
              />
            )}
          </section>
          <section class="stack" aria-labelledby="against-base">
            <h2 id="against-base">Against its base</h2>
            <DiffTable
              unified={p.diff.against_base}
              from={p.base_version ? `Version ${p.base_version} (base)` : 'Nothing (new)'}
              to="Proposed"
              label="Body, proposal against its base"
            />
          </section>
          <section class="stack" aria-labelledby="against-current">
            <h2 id="against-current">Against the current version</h2>
            {p.current_version === p.base_version ? (
              <p class="muted small">The current version is the base: the same diff as above.</p>
            ) : (
              <DiffTable
                unified={p.diff.against_current}
                from={p.current_version ? `Version ${p.current_version} (current)` : 'Nothing (deleted)'}
                to="Proposed"
                label="Body, proposal against the current version"
              />
            )}
          </section>
        </div>
      )}
    </>
  );
}

function Proposals() {
  const { path } = useProject();
  return path[1] ? <ProposalPage id={path[1]} /> : <ProposalList />;
}

export const sections = { proposals: Proposals };
