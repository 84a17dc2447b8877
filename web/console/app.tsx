import { wholeList } from './pages.js';
import type { ComponentType } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { defaultFormat } from '../shared/format.js';
import { api, ok } from './api.js';
import { type ConsoleConfig, finishSignIn } from './oauth.js';
import { href, navigate, route } from './router.js';
import { session, sessionState } from './session.js';
import { SignIn } from './signin.js';
import { meStore } from './me.js';
import { PendingCount } from './pending.js';
import { createStore, useStore } from './store.js';
import { theme, toggleTheme } from './theme.js';
import {
  allows,
  ErrorBox,
  Loading,
  type Me,
  type Project,
  ProjectCtx,
  type ProjectScope,
  projectRoleOf,
  useLoad,
} from './ui.js';

type SectionModule = { sections: Record<string, ComponentType> };
interface SectionSpec {
  id: string;
  label: string;
  load: () => Promise<SectionModule>;
}

// One chunk per area: the first page loads only the shell and its own section.
const flows = () => import('./sections/flows.js');
const reading = () => import('./sections/insights.js');
export const SECTIONS: SectionSpec[] = [
  { id: 'overview', label: 'Overview', load: () => import('./sections/overview.js') },
  { id: 'skills', label: 'Skills', load: () => import('./sections/skills.js') },
  { id: 'knowledge', label: 'Knowledge', load: () => import('./sections/knowledge.js') },
  { id: 'taxonomy', label: 'Taxonomy', load: () => import('./sections/taxonomy.js') },
  { id: 'search', label: 'Search playground', load: () => import('./sections/search.js') },
  { id: 'connections', label: 'Connections', load: flows },
  { id: 'datastreams', label: 'Datastreams', load: flows },
  { id: 'runs', label: 'Runs', load: flows },
  { id: 'events', label: 'Events', load: () => import('./sections/events.js') },
  { id: 'anomalies', label: 'Anomalies', load: () => import('./sections/anomalies.js') },
  { id: 'insights', label: 'Insights', load: reading },
  { id: 'data-quality', label: 'Data quality', load: reading },
  { id: 'proposals', label: 'Proposals', load: () => import('./sections/proposals.js') },
  { id: 'alerts', label: 'Alerts', load: () => import('./sections/alerts.js') },
  { id: 'settings', label: 'Project settings', load: () => import('./sections/project-settings.js') },
];
const ORG_PAGES = [
  { id: 'settings', label: 'Settings', permission: 'context.read' as const },
  { id: 'members', label: 'Members & grants', permission: 'admin' as const },
  { id: 'audit', label: 'Audit log', permission: 'admin' as const },
];

const configStore = createStore<ConsoleConfig | undefined>(undefined);

async function loadMe(): Promise<void> {
  try {
    meStore.set(await ok(api.GET('/api/org/me')));
    session.signedIn();
  } catch {
    if (sessionState.get().status === 'unknown') sessionState.set({ ...sessionState.get(), status: 'signed-out' });
  }
}

/** The project a deep link names, asked for during boot; taken by the first ProjectPage that wants it. */
let earlyProject: { id: string; answer: Promise<Project> } | undefined;
function projectAnswer(id: string): Promise<Project> {
  const fresh = () => ok(api.GET('/api/projects/{id}', { params: { path: { id } } }));
  const early = earlyProject?.id === id ? earlyProject.answer : undefined;
  earlyProject = undefined;
  // Asked before sign-in finished, it may have been refused: then ask again with the credentials.
  return early ? early.catch(fresh) : fresh();
}

async function boot(): Promise<void> {
  const r = route.get();
  const callback = r.parts[0] === 'callback';
  // Who is signed in is asked at once, beside the config: one round trip less before the first page.
  // (Not on the OAuth callback: there the token arrives only after the code exchange.)
  const early = callback ? undefined : api.GET('/api/org/me');
  // So are the project of a deep link and its section's code.
  const [first, second] = r.parts;
  if (first && !callback && first !== 'org') {
    earlyProject = { id: first, answer: ok(api.GET('/api/projects/{id}', { params: { path: { id: first } } })) };
    earlyProject.answer.catch(() => undefined);
    void SECTIONS.find((s) => s.id === (second ?? 'overview'))?.load();
  }
  const config = await ok(api.GET('/api/console/config'));
  configStore.set(config);
  sessionState.set({ status: 'unknown', mode: config.auth_mode });
  if (callback && config.oauth) {
    const { token, returnTo } = await finishSignIn(config.oauth, r.query);
    session.setToken(token);
    navigate(returnTo, true);
  }
  if (config.auth_mode !== 'disabled' && !session.token()) {
    sessionState.set({ ...sessionState.get(), status: 'signed-out' });
    return;
  }
  const answer = await early;
  if (answer?.response.ok && answer.data) {
    meStore.set(answer.data);
    session.signedIn();
  } else await loadMe();
}

/** Where a path segment list leads: the picker, an organization page or a project section. */
function Page() {
  const r = useStore(route);
  const me = useStore(meStore);
  const [first, second] = r.parts;
  if (!first) return <ProjectPicker />;
  if (first === 'org') return <OrgPage page={second ?? 'settings'} me={me} />;
  return <ProjectPage projectId={first} section={second ?? 'overview'} rest={r.parts.slice(2)} me={me!} />;
}

export function App() {
  const [bootError, setBootError] = useState<unknown>(null);
  const state = useStore(sessionState);
  const config = useStore(configStore);
  const me = useStore(meStore);
  useStore(theme);
  useEffect(() => {
    boot().catch(setBootError);
  }, []);
  useEffect(() => {
    const again = sessionState.subscribe((s) => {
      if (s.status === 'signed-in' && !meStore.get()) void loadMe();
    });
    return again;
  }, []);
  if (bootError)
    return (
      <main class="console-main">
        <ErrorBox error={bootError} />
      </main>
    );
  if (!config || state.status === 'unknown')
    return (
      <main class="console-main">
        <Loading what="the console" />
      </main>
    );
  if (state.status === 'signed-out') return <SignIn config={config} onSignedIn={() => void loadMe()} />;
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <Header me={me} />
      {me ? (
        <Page />
      ) : (
        <main class="console-main">
          <Loading />
        </main>
      )}
      {state.status === 'expired' && <SignIn config={config} onSignedIn={() => void loadMe()} expired />}
    </>
  );
}

/** Who is signed in and as what: on a project's pages, the role there (a grant may give more than the org role). */
function Identity(props: { me: Me }) {
  const me = props.me;
  const [first] = useStore(route).parts;
  const projectId = first && first !== 'org' && first !== 'callback' ? first : undefined;
  const inProject = projectId ? projectRoleOf(me, projectId) : undefined;
  const role = inProject ?? me.role;
  const where = inProject ? `your role in ${projectId}` : 'your organization role';
  return (
    <span class="identity small" title={`${where}; organization role ${me.role}; may ${me.permissions.join(', ')}`}>
      <span class="visually-hidden">Signed in as </span>
      <strong>{me.email ?? me.subject}</strong>{' '}
      <span class="badge" data-testid="header-role">
        <span class="visually-hidden">{inProject ? 'role in this project: ' : 'organization role: '}</span>
        {role}
      </span>
    </span>
  );
}

function Header(props: { me: Me | undefined }) {
  const t = useStore(theme);
  const mode = useStore(sessionState).mode;
  return (
    <header class="console-header">
      <a class="brand" href={href('')}>
        Context Hub
      </a>
      <div class="row header-tools">
        {props.me && <Identity me={props.me} />}
        <button type="button" class="action" onClick={toggleTheme} aria-pressed={t === 'dark'}>
          {t === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
        {mode !== 'disabled' && (
          <button type="button" class="action" onClick={() => session.signOut()}>
            Sign out
          </button>
        )}
      </div>
    </header>
  );
}

function ProjectPicker() {
  const projects = useLoad(
    () =>
      wholeList('projects', (cursor) => ok(api.GET('/api/projects', { params: { query: { limit: 200, cursor } } }))),
    [],
  );
  const me = useStore(meStore);
  useEffect(() => {
    document.title = 'Projects · Context Hub';
  }, []);
  return (
    <main id="content" class="console-main narrow">
      <h1>Projects</h1>
      <ErrorBox error={projects.error} />
      {projects.loading && !projects.data && <Loading what="projects" />}
      <ul class="plain project-list">
        {projects.data?.projects.map((p) => (
          <li key={p.id} class="card">
            <a href={href(`${p.id}/overview`)}>
              <strong>{p.name}</strong>
            </a>
            <div class="muted small mono">{p.id}</div>
            <div class="muted small">
              {p.reporting_currency} · {p.timezone}
            </div>
          </li>
        ))}
      </ul>
      {projects.data?.projects.length === 0 && <p class="muted">No project is visible to you.</p>}
      <h2>Organization</h2>
      <ul class="plain row">
        {ORG_PAGES.filter((o) => allows(me, undefined, o.permission)).map((o) => (
          <li key={o.id}>
            <a href={href(`org/${o.id}`)}>{o.label}</a>
          </li>
        ))}
      </ul>
      <h2>You</h2>
      {me && (
        <dl class="facts">
          <dt>Subject</dt>
          <dd class="mono">{me.subject}</dd>
          <dt>Organization role</dt>
          <dd>{me.role}</dd>
          <dt>Project grants</dt>
          <dd>
            {me.all_projects
              ? 'every project'
              : me.grants.map((g) => `${g.project_id} (${g.role})`).join(', ') || 'none'}
          </dd>
          <dt>Token scopes</dt>
          <dd>{me.scopes ? me.scopes.join(' ') : 'not narrowed'}</dd>
        </dl>
      )}
    </main>
  );
}

/** Loads a section's chunk once and renders it; the module cache makes a second visit instant. */
function useSection(spec: SectionSpec | undefined, id: string): ComponentType | null | undefined {
  const [loaded, setLoaded] = useState<{ spec: SectionSpec; module: SectionModule }>();
  useEffect(() => {
    if (!spec) return;
    let live = true;
    spec.load().then((module) => live && setLoaded({ spec, module }));
    return () => {
      live = false;
    };
  }, [spec]);
  if (!spec) return null;
  return loaded?.spec === spec ? loaded.module.sections[id] : undefined;
}

function ProjectPage(props: { projectId: string; section: string; rest: string[]; me: Me }) {
  const { projectId, section, me } = props;
  const project = useLoad(() => projectAnswer(projectId), [projectId]);
  const spec = SECTIONS.find((s) => s.id === section);
  const Section = useSection(spec, section);
  const scope = useMemo<ProjectScope | undefined>(
    () =>
      project.data && {
        project: project.data,
        me,
        format: { ...defaultFormat(), timeZone: project.data.timezone },
        path: [section, ...props.rest],
        can: (permission) => allows(me, project.data!.id, permission),
      },
    [project.data, me, section, props.rest.join('/')],
  );
  return (
    <div class="console-body">
      <nav class="console-nav" aria-label="Project sections">
        <div class="nav-project">
          <a href={href('')} class="small">
            All projects
          </a>
          <div class="mono small">{projectId}</div>
        </div>
        <ul class="plain">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={href(`${projectId}/${s.id}`)} aria-current={s.id === section ? 'page' : undefined}>
                {s.label}
                {s.id === 'proposals' && <PendingCount projectId={projectId} />}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" class="console-main">
        <ErrorBox error={project.error} />
        {!spec && <p class="notice error">There is no section “{section}”.</p>}
        {scope && Section && (
          <ProjectCtx.Provider value={scope}>
            <Section />
          </ProjectCtx.Provider>
        )}
        {spec && (!scope || !Section) && !project.error && <Loading />}
      </main>
    </div>
  );
}

function OrgPage(props: { page: string; me: Me | undefined }) {
  const [mod, setMod] = useState<SectionModule>();
  useEffect(() => {
    import('./sections/org.js').then(setMod);
  }, []);
  const Page = mod?.sections[props.page];
  return (
    <div class="console-body">
      <nav class="console-nav" aria-label="Organization">
        <div class="nav-project">
          <a href={href('')} class="small">
            All projects
          </a>
        </div>
        <ul class="plain">
          {ORG_PAGES.filter((o) => allows(props.me, undefined, o.permission)).map((o) => (
            <li key={o.id}>
              <a href={href(`org/${o.id}`)} aria-current={o.id === props.page ? 'page' : undefined}>
                {o.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" class="console-main">
        {Page ? <Page /> : mod ? <p class="notice error">No such page.</p> : <Loading />}
      </main>
    </div>
  );
}
