import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { wholeList } from '../pages.js';
import { ErrorBox, Field, Loading, PageTitle, StatusBadge, useLoad, useProject, useSubmit } from '../ui.js';
import { Instant } from './common.js';

export type Destination = Res<'/api/alerts/destinations', 'get'>['destinations'][number];
type TestResult = Res<'/api/alerts/destinations/{id}/test', 'post'>;
type Kind = Destination['kind'];

const KINDS: { id: Kind; label: string; hint: string }[] = [
  { id: 'slack', label: 'Slack', hint: 'An incoming-webhook URL (Slack app → Incoming Webhooks).' },
  {
    id: 'teams',
    label: 'Microsoft Teams',
    hint: 'The URL of a Workflows “post to a channel when a webhook request is received” flow.',
  },
  { id: 'email', label: 'Email (SMTP)', hint: 'Your SMTP server; messages go to every recipient.' },
  { id: 'pagerduty', label: 'PagerDuty', hint: 'An Events API v2 integration’s routing key.' },
  { id: 'webhook', label: 'Webhook', hint: 'Any HTTPS endpoint; signed per Standard Webhooks (secret shown once).' },
];

/** The project's destinations: where alert messages go, each with a test button. */
export function Destinations() {
  const { project, can } = useProject();
  const list = useLoad(
    () =>
      wholeList('destinations', (cursor) =>
        ok(api.GET('/api/alerts/destinations', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const [editing, setEditing] = useState<Destination | 'new' | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string }>();
  return (
    <>
      <PageTitle
        sub={
          can('admin') && (
            <button type="button" class="action" onClick={() => setEditing('new')}>
              New destination
            </button>
          )
        }
      >
        Alert destinations
      </PageTitle>
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="destinations" />}
      {secret && (
        <div class="notice" role="status" aria-label="Signing secret">
          <p>
            <strong>Signing secret of {secret.name}.</strong> Copy it now into the receiver: it is not shown again.
          </p>
          <p class="mono">{secret.value}</p>
          <button type="button" class="action" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      {editing && (
        <DestinationForm
          existing={editing === 'new' ? undefined : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved?.signing_secret) setSecret({ name: saved.name, value: saved.signing_secret });
            list.reload();
          }}
        />
      )}
      <ul class="plain stack" data-loaded={list.data ? 'true' : undefined} aria-label="Destinations">
        {list.data?.destinations.map((d) => (
          <DestinationCard
            key={d.id}
            d={d}
            onEdit={() => setEditing(d)}
            onChanged={(saved) => {
              if (saved?.signing_secret) setSecret({ name: saved.name, value: saved.signing_secret });
              list.reload();
            }}
          />
        ))}
      </ul>
      {list.data?.destinations.length === 0 && (
        <p class="muted">No destination yet: add one, then a rule that sends to it.</p>
      )}
    </>
  );
}

function DestinationCard(props: { d: Destination; onEdit(): void; onChanged(saved?: Destination): void }) {
  const d = props.d;
  const [result, setResult] = useState<TestResult>();
  const test = useSubmit(
    () => ok(api.POST('/api/alerts/destinations/{id}/test', { params: { path: { id: d.id } } })),
    (r) => {
      setResult(r);
      props.onChanged();
    },
  );
  const remove = useSubmit(async () => {
    if (!confirm(`Delete destination ${d.name}?`)) return undefined;
    await ok(api.DELETE('/api/alerts/destinations/{id}', { params: { path: { id: d.id } } }));
    return undefined;
  }, props.onChanged);
  const rotate = useSubmit(
    async () => {
      if (!confirm(`Make a new signing secret for ${d.name}? The current one stops working at once.`)) return undefined;
      return ok(
        api.PATCH('/api/alerts/destinations/{id}', {
          params: { path: { id: d.id } },
          body: { rotate_signing_secret: true },
        }),
      );
    },
    (saved) => props.onChanged(saved),
  );
  const toggle = useSubmit(
    () =>
      ok(api.PATCH('/api/alerts/destinations/{id}', { params: { path: { id: d.id } }, body: { enabled: !d.enabled } })),
    () => props.onChanged(),
  );
  const last = result ?? d.last_test;
  return (
    <li class="card stack" aria-label={`Destination ${d.name}`}>
      <div class="spread">
        <h2>
          {d.name} <span class="muted small">{KINDS.find((k) => k.id === d.kind)?.label}</span>
        </h2>
        <StatusBadge status={d.enabled ? 'active' : 'disabled'} />
      </div>
      <dl class="facts small">
        <dt>Sends to</dt>
        <dd class="mono">{d.target ?? '–'}</dd>
        <dt>Secrets</dt>
        <dd>{d.secret_fields.length ? `${d.secret_fields.join(', ')}: stored (write-only)` : 'none'}</dd>
        {d.kind === 'email' && (
          <>
            <dt>Recipients</dt>
            <dd>{((d.config.to as string[] | undefined) ?? []).join(', ')}</dd>
          </>
        )}
        <dt>Rules</dt>
        <dd>{d.rules.length ? d.rules.map((r) => r.name).join(', ') : 'none yet'}</dd>
        <dt>Last test</dt>
        <dd>
          {last ? (
            <>
              <StatusBadge status={last.ok ? 'pass' : 'fail'} /> <Instant at={last.at} />
            </>
          ) : (
            'never'
          )}
        </dd>
      </dl>
      <div class="row">
        <button type="button" class="action" onClick={test.submit} disabled={test.busy}>
          {test.busy ? 'Sending…' : 'Send test'}
        </button>
        <button type="button" class="action" onClick={props.onEdit}>
          Edit
        </button>
        <button type="button" class="action" onClick={toggle.submit} disabled={toggle.busy}>
          {d.enabled ? 'Disable' : 'Enable'}
        </button>
        {d.kind === 'webhook' && (
          <button type="button" class="action" onClick={rotate.submit} disabled={rotate.busy}>
            New signing secret
          </button>
        )}
        <button type="button" class="action danger" onClick={remove.submit} disabled={remove.busy}>
          Delete
        </button>
      </div>
      <ErrorBox error={test.error ?? remove.error ?? rotate.error ?? toggle.error} />
      {result && (
        <div role="status" aria-label="Test result" class={result.ok ? 'notice' : 'notice error'}>
          {result.ok ? 'Delivered' : 'Not delivered'}
          {result.http_status !== null && ` · HTTP ${result.http_status}`} · {result.latency_ms} ms
          {result.error && <div>{result.error}</div>}
          {result.response_excerpt && <div class="mono small">{result.response_excerpt}</div>}
        </div>
      )}
    </li>
  );
}

/** New or edit. Secret fields start empty: typed values replace the stored ones, empty keeps them. */
function DestinationForm(props: { existing?: Destination; onDone(saved?: Destination): void }) {
  const { project } = useProject();
  const e = props.existing;
  const c = (e?.config ?? {}) as Record<string, unknown>;
  const [kind, setKind] = useState<Kind>(e?.kind ?? 'slack');
  const [form, setForm] = useState({
    name: e?.name ?? '',
    url: '',
    host: String(c.host ?? ''),
    port: String(c.port ?? 587),
    tls: c.secure ? 'tls' : c.require_tls ? 'starttls-required' : 'starttls',
    from: String(c.from ?? ''),
    to: ((c.to as string[] | undefined) ?? []).join(', '),
    user: '',
    password: '',
    events_url: String(c.events_url ?? 'https://events.pagerduty.com/v2/enqueue'),
    routing_key: '',
  });
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  const settings = (): { config: Record<string, unknown>; secrets: Record<string, string> } => {
    const typed = (entries: [string, string][]) => Object.fromEntries(entries.filter(([, v]) => v !== ''));
    if (kind === 'email')
      return {
        config: {
          host: form.host,
          port: Number(form.port),
          secure: form.tls === 'tls',
          require_tls: form.tls === 'starttls-required',
          from: form.from,
          to: form.to
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        },
        secrets: typed([
          ['user', form.user],
          ['password', form.password],
        ]),
      };
    if (kind === 'pagerduty')
      return { config: { events_url: form.events_url }, secrets: typed([['routing_key', form.routing_key]]) };
    return { config: {}, secrets: typed([['url', form.url]]) };
  };
  const save = useSubmit(() => {
    const { config, secrets } = settings();
    return e
      ? ok(
          api.PATCH('/api/alerts/destinations/{id}', {
            params: { path: { id: e.id } },
            body: { name: form.name, config, ...(Object.keys(secrets).length ? { secrets } : {}) },
          }),
        )
      : ok(
          api.POST('/api/alerts/destinations', {
            body: { project_id: project.id, name: form.name, kind, config, secrets },
          }),
        );
  }, props.onDone);
  const keep = e ? 'leave empty to keep the stored one' : undefined;
  const secretInput = (label: string, k: 'url' | 'user' | 'password' | 'routing_key', path: string) => (
    <Field label={label} error={save.fieldError(path)} hint={keep}>
      {(a) => <input {...a} type="password" autocomplete="off" value={form[k]} onInput={set(k)} />}
    </Field>
  );
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Edit ${e.name}` : 'New destination'}>
      <h2>{e ? `Edit ${e.name}` : 'New destination'}</h2>
      <div class="form-grid">
        <Field label="Name" error={save.fieldError('name')}>
          {(a) => <input {...a} value={form.name} onInput={set('name')} />}
        </Field>
        <Field label="Kind" hint={KINDS.find((k) => k.id === kind)?.hint}>
          {(a) => (
            <select {...a} value={kind} disabled={!!e} onChange={(ev) => setKind(ev.currentTarget.value as Kind)}>
              {KINDS.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {(kind === 'webhook' || kind === 'slack' || kind === 'teams') && (
        <div class="form-grid">{secretInput('URL (secret)', 'url', 'secrets.url')}</div>
      )}
      {kind === 'email' && (
        <div class="form-grid">
          <Field label="SMTP host" error={save.fieldError('config.host')}>
            {(a) => <input {...a} value={form.host} onInput={set('host')} />}
          </Field>
          <Field label="Port" error={save.fieldError('config.port')}>
            {(a) => <input {...a} type="number" min="1" max="65535" value={form.port} onInput={set('port')} />}
          </Field>
          <Field label="Encryption">
            {(a) => (
              <select {...a} value={form.tls} onChange={set('tls')}>
                <option value="starttls">STARTTLS when offered</option>
                <option value="starttls-required">STARTTLS required</option>
                <option value="tls">TLS (port 465)</option>
              </select>
            )}
          </Field>
          <Field label="From" error={save.fieldError('config.from')}>
            {(a) => <input {...a} type="email" value={form.from} onInput={set('from')} />}
          </Field>
          <Field label="To (comma-separated)" error={save.fieldError('config.to') ?? save.fieldError('config.to.0')}>
            {(a) => <input {...a} value={form.to} onInput={set('to')} />}
          </Field>
          {secretInput('SMTP user (secret)', 'user', 'secrets.user')}
          {secretInput('SMTP password (secret)', 'password', 'secrets.password')}
        </div>
      )}
      {kind === 'pagerduty' && (
        <div class="form-grid">
          <Field label="Events API URL" error={save.fieldError('config.events_url')}>
            {(a) => <input {...a} value={form.events_url} onInput={set('events_url')} />}
          </Field>
          {secretInput('Routing key (secret)', 'routing_key', 'secrets.routing_key')}
        </div>
      )}
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          {e ? 'Save destination' : 'Create destination'}
        </button>
        <button type="button" class="action" onClick={() => props.onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
