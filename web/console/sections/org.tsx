import { wholeList } from '../pages.js';
import { useState } from 'preact/hooks';
import { defaultFormat, fmtInstant } from '../../shared/format.js';
import { api, ok, type Res } from '../api.js';
import { meStore } from '../me.js';
import { useStore } from '../store.js';
import { allows, DataTable, ErrorBox, Field, Loading, PageTitle, useLoad, useSubmit, TableWrap } from '../ui.js';

type Member = Res<'/api/org/members', 'get'>['members'][number];
type Grant = Member['grants'][number];
const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
const GRANT_ROLES = ['viewer', 'editor', 'admin'] as const;

function useOrgFormat() {
  const settings = useLoad(() => ok(api.GET('/api/org/settings')), []);
  return { ...defaultFormat(), timeZone: settings.data?.default_timezone };
}

function Settings() {
  const me = useStore(meStore);
  const settings = useLoad(() => ok(api.GET('/api/org/settings')), []);
  const s = settings.data;
  const [form, setForm] = useState<{ name: string; default_reporting_currency: string; default_timezone: string }>();
  const save = useSubmit(
    () => ok(api.PUT('/api/org/settings', { body: form! })),
    () => {
      setForm(undefined);
      settings.reload();
    },
  );
  const set =
    (k: 'name' | 'default_reporting_currency' | 'default_timezone') => (ev: { currentTarget: { value: string } }) =>
      setForm({ ...form!, [k]: ev.currentTarget.value });
  return (
    <>
      <PageTitle>Organization settings</PageTitle>
      <ErrorBox error={settings.error} />
      {!s && settings.loading && <Loading what="settings" />}
      {s && (
        <div class="stack" data-loaded="true">
          {form ? (
            <form class="card stack" onSubmit={save.submit} aria-label="Organization settings">
              <div class="form-grid">
                <Field label="Name" error={save.fieldError('name')}>
                  {(a) => <input {...a} value={form.name} onInput={set('name')} />}
                </Field>
                <Field label="Default currency" error={save.fieldError('default_reporting_currency')}>
                  {(a) => (
                    <input {...a} value={form.default_reporting_currency} onInput={set('default_reporting_currency')} />
                  )}
                </Field>
                <Field label="Default timezone" error={save.fieldError('default_timezone')}>
                  {(a) => <input {...a} value={form.default_timezone} onInput={set('default_timezone')} />}
                </Field>
              </div>
              <ErrorBox error={save.error} />
              <button type="submit" class="action primary" disabled={save.busy}>
                Save settings
              </button>
            </form>
          ) : (
            <dl class="facts">
              <dt>Name</dt>
              <dd>{s.name}</dd>
              <dt>Default currency</dt>
              <dd>{s.default_reporting_currency}</dd>
              <dt>Default timezone</dt>
              <dd>{s.default_timezone}</dd>
              <dt>Sign-in</dt>
              <dd>{s.auth_mode}</dd>
            </dl>
          )}
          {!form && allows(me, undefined, 'owner') && (
            <div>
              <button
                type="button"
                class="action"
                onClick={() =>
                  setForm({
                    name: s.name,
                    default_reporting_currency: s.default_reporting_currency,
                    default_timezone: s.default_timezone,
                  })
                }
              >
                Edit settings
              </button>
            </div>
          )}
          <h2>Entitlements</h2>
          <dl class="facts">
            {Object.entries(s.limits).map(([k, v]) => (
              <>
                <dt key={`${k}-t`}>{k.replace(/_/g, ' ')}</dt>
                <dd key={`${k}-d`}>{v}</dd>
              </>
            ))}
          </dl>
          <h2>Roles</h2>
          <ul>
            {s.roles.map((r) => (
              <li key={r.role}>
                <strong>{r.role}</strong>: {r.description} <span class="muted small">({r.permissions.join(', ')})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

function Members() {
  const members = useLoad(
    () =>
      wholeList('members', (cursor) => ok(api.GET('/api/org/members', { params: { query: { limit: 200, cursor } } }))),
    [],
  );
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle
        sub={
          <button type="button" class="action" onClick={() => setAdding(true)}>
            Add member
          </button>
        }
      >
        Members and grants
      </PageTitle>
      <ErrorBox error={members.error} />
      {!members.data && members.loading && <Loading what="members" />}
      {adding && (
        <AddMember
          onDone={() => {
            setAdding(false);
            members.reload();
          }}
        />
      )}
      <ul class="plain stack" data-loaded={members.data ? 'true' : undefined} aria-label="Members">
        {members.data?.members.map((m) => (
          <MemberCard key={m.subject} m={m} onChanged={members.reload} />
        ))}
      </ul>
    </>
  );
}

function AddMember(props: { onDone(): void }) {
  const [form, setForm] = useState({ subject: '', email: '', role: 'viewer' });
  const save = useSubmit(
    () =>
      ok(
        api.POST('/api/org/members', {
          body: { subject: form.subject, role: form.role as 'viewer', ...(form.email ? { email: form.email } : {}) },
        }),
      ),
    props.onDone,
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="card stack" onSubmit={save.submit} aria-label="Add member">
      <div class="form-grid">
        <Field label="Subject" error={save.fieldError('subject')} hint="the identity provider's sub">
          {(a) => <input {...a} value={form.subject} onInput={set('subject')} />}
        </Field>
        <Field label="Email (optional)" error={save.fieldError('email')}>
          {(a) => <input {...a} type="email" value={form.email} onInput={set('email')} />}
        </Field>
        <Field label="Role" error={save.fieldError('role')}>
          {(a) => (
            <select {...a} value={form.role} onChange={set('role')}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          Add member
        </button>
        <button type="button" class="action" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function MemberCard(props: { m: Member; onChanged(): void }) {
  const m = props.m;
  const path = { subject: m.subject };
  const [grants, setGrants] = useState<Grant[]>(m.grants);
  const [newGrant, setNewGrant] = useState({ project_id: '', role: 'viewer' });
  const [roleError, setRoleError] = useState<unknown>(null);
  const changeRole = (next: string) => {
    setRoleError(null);
    ok(api.PATCH('/api/org/members/{subject}', { params: { path }, body: { role: next as 'viewer' } })).then(
      props.onChanged,
      setRoleError,
    );
  };
  const saveGrants = useSubmit(
    () => ok(api.PUT('/api/org/members/{subject}/grants', { params: { path }, body: { grants } })),
    props.onChanged,
  );
  const remove = useSubmit(async () => {
    if (!confirm(`Remove ${m.subject} and its grants?`)) return;
    await ok(api.DELETE('/api/org/members/{subject}', { params: { path } }));
  }, props.onChanged);
  return (
    <li class="card stack" aria-label={`Member ${m.subject}`}>
      <div class="spread">
        <h2>
          {m.subject} {m.email && <span class="muted small">{m.email}</span>}
        </h2>
        <div class="row">
          <Field label="Role">
            {(a) => (
              <select {...a} value={m.role} onChange={(e) => changeRole(e.currentTarget.value)}>
                {ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            )}
          </Field>
          <button type="button" class="action danger" onClick={() => remove.submit()}>
            Remove
          </button>
        </div>
      </div>
      <ErrorBox error={roleError ?? remove.error} />
      <h3>Project grants</h3>
      <ul class="plain stack" aria-label={`Grants of ${m.subject}`}>
        {grants.map((g) => (
          <li key={g.project_id} class="row">
            <span class="mono">{g.project_id}</span> <span class="badge">{g.role}</span>
            <button
              type="button"
              class="action small"
              aria-label={`Revoke ${g.project_id}`}
              onClick={() => setGrants(grants.filter((x) => x.project_id !== g.project_id))}
            >
              Revoke
            </button>
          </li>
        ))}
        {grants.length === 0 && <li class="muted small">No project grant.</li>}
      </ul>
      <div class="form-grid">
        <Field label="Project id">
          {(a) => (
            <input
              {...a}
              value={newGrant.project_id}
              onInput={(e) => setNewGrant({ ...newGrant, project_id: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Grant role">
          {(a) => (
            <select
              {...a}
              value={newGrant.role}
              onChange={(e) => setNewGrant({ ...newGrant, role: e.currentTarget.value })}
            >
              {GRANT_ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
        <button
          type="button"
          class="action"
          disabled={!newGrant.project_id.trim()}
          onClick={() => {
            setGrants([
              ...grants.filter((g) => g.project_id !== newGrant.project_id.trim()),
              { project_id: newGrant.project_id.trim(), role: newGrant.role as Grant['role'] },
            ]);
            setNewGrant({ project_id: '', role: 'viewer' });
          }}
        >
          Add grant
        </button>
      </div>
      <ErrorBox error={saveGrants.error} />
      <div>
        <button type="button" class="action primary" onClick={() => saveGrants.submit()} disabled={saveGrants.busy}>
          Save grants
        </button>
      </div>
    </li>
  );
}

function Audit() {
  const format = useOrgFormat();
  const [filters, setFilters] = useState({ action: '', actor: '' });
  const audit = useLoad(
    () =>
      ok(
        api.GET('/api/org/audit', {
          params: {
            query: {
              limit: 100,
              ...(filters.action ? { action: filters.action } : {}),
              ...(filters.actor ? { actor: filters.actor } : {}),
            },
          },
        }),
      ),
    [filters.action, filters.actor],
  );
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <fieldset class="form-grid">
        <legend class="visually-hidden">Filters</legend>
        <Field label="Action">
          {(a) => (
            <input
              {...a}
              value={filters.action}
              onChange={(e) => setFilters({ ...filters, action: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Actor">
          {(a) => (
            <input
              {...a}
              value={filters.actor}
              onChange={(e) => setFilters({ ...filters, actor: e.currentTarget.value })}
            />
          )}
        </Field>
      </fieldset>
      <ErrorBox error={audit.error} />
      {!audit.data && audit.loading && <Loading what="the audit log" />}
      <TableWrap>
        <DataTable
          caption={'Audit log, newest first'}
          columns={['When', 'Actor', 'Action', 'Target', 'Project']}
          data-loaded={audit.data ? 'true' : undefined}
        >
          {audit.data?.entries.map((e) => (
            <tr key={e.id}>
              <td>{fmtInstant(e.at, format)}</td>
              <td class="mono small">{e.actor.subject}</td>
              <td>{e.action}</td>
              <td class="mono small">{e.target}</td>
              <td class="mono small">{e.project_id ?? '–'}</td>
            </tr>
          ))}
        </DataTable>
      </TableWrap>
    </>
  );
}

export const sections = { settings: Settings, members: Members, audit: Audit };
