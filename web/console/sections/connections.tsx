/** The Connections page: each connection, where its credentials come from, its token state, verify. */
import { wholeList } from '../pages.js';
import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { ErrorBox, Field, Loading, PageTitle, StatusBadge, useLoad, useProject, useSubmit } from '../ui.js';
import { Instant } from './common.js';

type Connection = Res<'/api/credentials/list', 'get'>['connections'][number];
type Verification = Res<'/api/credentials/verify', 'post'>;
type ProviderEntry = Res<'/api/providers', 'get'>['providers'][number];

interface SchemaProperty {
  description?: string;
}

/** The properties a provider's JSON Schema names, with whether each is required. */
function fieldsOf(schema: Record<string, unknown>): { name: string; required: boolean; description?: string }[] {
  const properties = (schema.properties ?? {}) as Record<string, SchemaProperty>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, p]) => ({
    name,
    required: required.has(name),
    description: p.description,
  }));
}

/** One secret row per property of the provider's secrets schema (all of them write-only). */
function secretRows(entry: ProviderEntry | undefined): { name: string; value: string }[] {
  const names = entry ? fieldsOf(entry.secrets_schema).map((f) => f.name) : [];
  return names.length ? names.map((name) => ({ name, value: '' })) : [{ name: '', value: '' }];
}

export function Connections() {
  const { project, can } = useProject();
  const list = useLoad(
    () =>
      wholeList('connections', (cursor) =>
        ok(api.GET('/api/credentials/list', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  return (
    <>
      <PageTitle
        sub={
          can('admin') && (
            <button type="button" class="action" onClick={() => setEditing('new')}>
              New connection
            </button>
          )
        }
      >
        Connections
      </PageTitle>
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="connections" />}
      {editing && (
        <ConnectionForm
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ul class="plain stack" data-loaded={list.data ? 'true' : undefined} aria-label="Connections">
        {list.data?.connections.map((c) => (
          <ConnectionCard key={c.connection_ref_id} c={c} onRotate={() => setEditing(c)} onVerified={list.reload} />
        ))}
      </ul>
      {list.data?.connections.length === 0 && <p class="muted">No connection yet.</p>}
    </>
  );
}

/** Where a connection's credentials come from, in the words of the API's `token.source`. */
function credentialSource(c: Connection): string {
  if (c.token.source === 'nango') {
    const key = (c.config.nango as { provider_config_key?: string } | undefined)?.provider_config_key;
    return `Nango${key ? ` (integration ${key})` : ''}`;
  }
  if (c.token.source === 'token_endpoint') return 'its own OAuth token endpoint (refresh token stored here)';
  return 'secrets stored here';
}

function ConnectionCard(props: { c: Connection; onRotate(): void; onVerified(): void }) {
  const { project, can } = useProject();
  const c = props.c;
  const [result, setResult] = useState<Verification>();
  const verify = useSubmit(
    () =>
      ok(
        api.POST('/api/credentials/verify', {
          body: { project_id: project.id, provider: c.provider, connection_ref_id: c.connection_ref_id },
        }),
      ),
    (r) => {
      setResult(r);
      props.onVerified();
    },
  );
  const [link, setLink] = useState<string | null>();
  const connectLink = useSubmit(
    () =>
      ok(
        api.POST('/api/credentials/connect-link', {
          body: { project_id: project.id, connection_ref_id: c.connection_ref_id },
        }),
      ),
    (r) => setLink(r.connect_link),
  );
  const check = (name: string, r: { ok: boolean; ms: number; reason: string | null }) => (
    <li>
      {name}: <StatusBadge status={r.ok ? 'pass' : 'fail'} /> {r.ms} ms {r.reason && <span>· {r.reason}</span>}
    </li>
  );
  return (
    <li class="card stack" aria-label={`Connection ${c.connection_ref_id}`}>
      <div class="spread">
        <h2>
          {c.connection_ref_id} <span class="muted small">{c.provider}</span>
        </h2>
        <StatusBadge status={c.status} />
      </div>
      {c.outbound_refusal && (
        <p class="unresolved" role="note" aria-label="Outbound policy">
          {c.outbound_refusal}
        </p>
      )}
      <dl class="facts small">
        <dt>Credentials from</dt>
        <dd>{credentialSource(c)}</dd>
        <dt>Secrets</dt>
        <dd>{c.has_secrets ? 'stored (write-only)' : 'none'}</dd>
        {c.token.source !== 'secrets' && (
          <>
            <dt>Token expires</dt>
            <dd>
              <Instant at={c.token.expires_at} />
            </dd>
            <dt>Last token refresh</dt>
            <dd>
              <Instant at={c.token.last_refresh_at} />
            </dd>
          </>
        )}
        {c.token.last_error && (
          <>
            <dt>Token error</dt>
            <dd class="unresolved">{c.token.last_error}</dd>
          </>
        )}
        <dt>Rotated</dt>
        <dd>
          <Instant at={c.secrets_rotated_at} />
        </dd>
        <dt>Last verified</dt>
        <dd>
          <Instant at={c.last_verified_at} />
        </dd>
        <dt>Config</dt>
        <dd class="mono">{JSON.stringify(c.config)}</dd>
        {c.last_error && c.last_error !== c.outbound_refusal && (
          <>
            <dt>Last error</dt>
            <dd class="unresolved">{c.last_error}</dd>
          </>
        )}
      </dl>
      {can('admin') && (
        <div class="row">
          <button type="button" class="action" onClick={verify.submit} disabled={verify.busy}>
            Verify
          </button>
          {c.token.source === 'nango' ? (
            <button type="button" class="action" onClick={connectLink.submit} disabled={connectLink.busy}>
              Nango connect link
            </button>
          ) : (
            <button type="button" class="action" onClick={props.onRotate}>
              Rotate secrets
            </button>
          )}
        </div>
      )}
      <ErrorBox error={verify.error} />
      <ErrorBox error={connectLink.error} />
      {link !== undefined && (
        <p role="status" aria-label="Connect link">
          {link ? (
            <>
              Send this link to whoever authorizes the account (it expires soon):{' '}
              <a href={link} target="_blank" rel="noreferrer">
                {link}
              </a>
            </>
          ) : (
            'Nango made a session without a link; use its token with the Nango frontend SDK.'
          )}
        </p>
      )}
      {result && (
        <div role="status" aria-label="Verification result">
          <p>
            Verification: <StatusBadge status={result.status} />
          </p>
          <ul>
            {check('Token', result.token_check)}
            {check('Connectivity', result.connectivity)}
          </ul>
        </div>
      )}
    </li>
  );
}

/** Create, or rotate: secrets are typed in and sent, never read back (the API only says they exist). */
function ConnectionForm(props: { existing?: Connection; onDone(): void }) {
  const { project } = useProject();
  const e = props.existing;
  const [form, setForm] = useState({
    provider: e?.provider ?? 'demo',
    connection_ref_id: e?.connection_ref_id ?? '',
    config: JSON.stringify(e?.config ?? {}, null, 2),
  });
  const [secrets, setSecrets] = useState<{ name: string; value: string }[]>([{ name: '', value: '' }]);
  const catalogue = useLoad(() => ok(api.GET('/api/providers')), []);
  const entry = catalogue.data?.providers.find((p) => p.name === form.provider);
  // Until the catalogue answers, only the default is known: choosing is held until then.
  const awaitingCatalogue = !catalogue.data && catalogue.loading;
  const choose = (name: string) => {
    const next = catalogue.data?.providers.find((p) => p.name === name);
    const required = next ? fieldsOf(next.config_schema).filter((f) => f.required) : [];
    setForm({
      ...form,
      provider: name,
      // The keys the provider requires, to fill in (the JSON stays the whole configuration).
      config: JSON.stringify(Object.fromEntries(required.map((f) => [f.name, ''])), null, 2),
    });
    setSecrets(secretRows(next));
  };
  const [configError, setConfigError] = useState<string>();
  const save = useSubmit(async () => {
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(form.config || '{}');
      setConfigError(undefined);
    } catch {
      setConfigError('must be a JSON object');
      throw new Error('The configuration is not valid JSON.');
    }
    const named = secrets.filter((s) => s.name.trim());
    return ok(
      api.POST('/api/credentials', {
        body: {
          project_id: project.id,
          provider: form.provider,
          connection_ref_id: form.connection_ref_id,
          config,
          ...(named.length ? { secrets: Object.fromEntries(named.map((s) => [s.name.trim(), s.value])) } : {}),
        },
      }),
    );
  }, props.onDone);
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Rotate ${e.connection_ref_id}` : 'New connection'}>
      <h2>{e ? `Rotate secrets of ${e.connection_ref_id}` : 'New connection'}</h2>
      <div class="form-grid">
        <Field label="Provider" error={save.fieldError('provider')}>
          {(a) => (
            <select
              {...a}
              value={form.provider}
              onChange={(ev) => choose(ev.currentTarget.value)}
              disabled={!!e || awaitingCatalogue}
              aria-busy={awaitingCatalogue}
            >
              {(catalogue.data?.providers ?? [{ name: form.provider, description: '' }]).map((p) => (
                <option key={p.name} value={p.name} title={p.description}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Connection id" error={save.fieldError('connection_ref_id')}>
          {(a) => <input {...a} value={form.connection_ref_id} onInput={set('connection_ref_id')} disabled={!!e} />}
        </Field>
      </div>
      {!e && <ErrorBox error={catalogue.error} />}
      {entry && !e && (
        <section class="stack" aria-label="Expected fields">
          <p>{entry.description}</p>
          <ul>
            {fieldsOf(entry.config_schema).map((f) => (
              <li key={f.name}>
                <code>{f.name}</code>
                {f.required ? ' (required)' : ''}
                {f.description ? ` — ${f.description}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      <Field label="Configuration (JSON)" error={configError ?? save.fieldError('config')}>
        {(a) => <textarea {...a} class="short" value={form.config} onInput={set('config')} />}
      </Field>
      <fieldset class="stack">
        <legend>Secrets (write-only: stored encrypted, never shown again)</legend>
        {secrets.map((s, i) => (
          <div class="form-grid" key={i}>
            <Field label={`Secret ${i + 1} name`}>
              {(a) => (
                <input
                  {...a}
                  value={s.name}
                  onInput={(ev) =>
                    setSecrets(secrets.map((x, j) => (j === i ? { ...x, name: ev.currentTarget.value } : x)))
                  }
                />
              )}
            </Field>
            <Field label={`Secret ${i + 1} value`}>
              {(a) => (
                <input
                  {...a}
                  type="password"
                  autocomplete="off"
                  value={s.value}
                  onInput={(ev) =>
                    setSecrets(secrets.map((x, j) => (j === i ? { ...x, value: ev.currentTarget.value } : x)))
                  }
                />
              )}
            </Field>
          </div>
        ))}
        <button type="button" class="action" onClick={() => setSecrets([...secrets, { name: '', value: '' }])}>
          Add a secret
        </button>
      </fieldset>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          {e ? 'Rotate' : 'Create connection'}
        </button>
        <button type="button" class="action" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
