import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { FormatContext } from '../shared/format.js';
import { ApiError, type Res } from './api.js';
import { navigationCount } from './router.js';

export type Project = Res<'/api/projects/{id}', 'get'>;
export type Me = Res<'/api/org/me', 'get'>;
export type Permission = 'context.read' | 'data.read' | 'context.write' | 'context.review' | 'admin' | 'owner';

const ROLE_PERMISSIONS: Record<string, Permission[]> = {
  viewer: ['context.read', 'data.read'],
  editor: ['context.read', 'data.read', 'context.write'],
  admin: ['context.read', 'data.read', 'context.write', 'context.review', 'admin'],
  owner: ['context.read', 'data.read', 'context.write', 'context.review', 'admin', 'owner'],
};

/** The signed-in user's role on a project: organization-wide, or its grant there (which may give more). */
export function projectRoleOf(me: Me, projectId: string): Me['role'] | undefined {
  return me.all_projects ? me.role : me.grants.find((g) => g.project_id === projectId)?.role;
}

/**
 * What the signed-in user may do on a project: its role there (organization-wide or granted),
 * narrowed by the token's scopes. Only used to leave out what would be refused; the API decides.
 */
export function allows(me: Me | undefined, projectId: string | undefined, permission: Permission): boolean {
  if (!me) return false;
  // As on the service (permissions.ts): owner and context.review ride on the admin scope.
  const scope = permission === 'owner' || permission === 'context.review' ? 'admin' : permission;
  if (me.scopes && !me.scopes.includes(scope)) return false;
  if (ROLE_PERMISSIONS[me.role]?.includes(permission) && (me.all_projects || permission === 'owner')) return true;
  if (!projectId) return ROLE_PERMISSIONS[me.role]?.includes(permission) ?? false;
  const role = projectRoleOf(me, projectId);
  return role !== undefined && (ROLE_PERMISSIONS[role]?.includes(permission) ?? false);
}

export interface ProjectScope {
  project: Project;
  me: Me;
  format: FormatContext;
  /** The section path below the project: ['skills', 'investigate-roas-drop']. */
  path: string[];
  can(permission: Permission): boolean;
}
export const ProjectCtx = createContext<ProjectScope | null>(null);
export function useProject(): ProjectScope {
  const scope = useContext(ProjectCtx);
  if (!scope) throw new Error('useProject outside a project page');
  return scope;
}

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Loads data for a view; `reload` runs it again. A stale answer never replaces a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, loading: false }),
      (error) => mine === seq.current && setState((s) => ({ ...s, error, loading: false })),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

export function ErrorBox(props: { error: unknown }) {
  if (!props.error) return null;
  const e = props.error;
  return (
    <p class="notice error" role="alert">
      {messageOf(e)}
      {e instanceof ApiError && e.code ? <span class="muted small"> ({e.code})</span> : null}
    </p>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

/** A form's submit state: busy, the error, and per-field messages from the problem's errors[]. */
export function useSubmit<T>(action: () => Promise<T>, done?: (result: T) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await action();
      done?.(result);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined);
  /** The problem's detail, unless every violation is already shown next to its field. */
  const formError = error instanceof ApiError && error.errors.length > 0 ? error : error;
  return { busy, error: formError, submit, fieldError };
}

let fieldSeq = 0;
/** A labelled control with its error right under it (announced and tied by aria-describedby). */
export function Field(props: {
  label: string;
  error?: string;
  hint?: string;
  children: (attrs: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ComponentChildren;
}) {
  const id = useRef(`f${++fieldSeq}`).current;
  const describedBy = [props.error ? `${id}-err` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {props.hint && (
        <span id={`${id}-hint`} class="muted small">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${id}-err`} class="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

/** The page's heading: sets the document title and takes focus after a navigation (screen readers). */
export function PageTitle(props: { children: string; sub?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.children} · Context Hub`;
    if (navigationCount.navigations > 0) ref.current?.focus({ preventScroll: true });
  }, [props.children]);
  return (
    <div class="page-title">
      <h1 ref={ref} tabIndex={-1}>
        {props.children}
      </h1>
      {props.sub}
    </div>
  );
}

export function Tabs(props: { tabs: { id: string; label: string }[]; current: string; onChange(id: string): void }) {
  return (
    <div class="tabs" role="tablist">
      {props.tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === props.current}
          class={t.id === props.current ? 'tab current' : 'tab'}
          onClick={() => props.onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function StatusBadge(props: { status: string }) {
  const tone: Record<string, string> = {
    succeeded: 'success',
    pass: 'success',
    active: 'success',
    failed: 'danger',
    fail: 'danger',
    error: 'danger',
    expired: 'danger',
    revoked: 'danger',
    warn: 'warning',
    running: 'info',
    queued: 'info',
    delivered: 'success',
    dead: 'danger',
    retry: 'warning',
    interrupted: 'warning',
    held: 'info',
    pending: 'info',
    delivering: 'info',
    disabled: 'warning',
  };
  return <span class={`badge ${tone[props.status] ?? ''}`}>{props.status}</span>;
}

/** A table with its caption (for screen readers) and header row; `{ num }` columns align right. */
export function DataTable(props: {
  caption: string;
  columns: (string | { num: string })[];
  'data-loaded'?: string;
  children: ComponentChildren;
}) {
  return (
    <table data-loaded={props['data-loaded']}>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((c) =>
            typeof c === 'string' ? (
              <th key={c} scope="col">
                {c}
              </th>
            ) : (
              <th key={c.num} scope="col" class="num">
                {c.num}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/**
 * The box a table scrolls sideways in at narrow widths. While it scrolls it is a named, focusable
 * region, so keyboard users can scroll it too (axe: scrollable-region-focusable); while everything
 * fits it is no tab stop. Named after the table inside (its caption or aria-label) unless `label` is given.
 */
export function TableWrap(props: { label?: string; hidden?: boolean; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  const [name, setName] = useState(props.label);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      setScrolls(el.scrollWidth > el.clientWidth + 1);
      const table = el.querySelector('table');
      if (!props.label)
        setName(table?.querySelector('caption')?.textContent ?? table?.getAttribute('aria-label') ?? undefined);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    const table = el.querySelector('table');
    if (table) resized.observe(table);
    return () => resized.disconnect();
  });
  return (
    <div
      ref={box}
      class="table-wrap"
      hidden={props.hidden}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': name } : {})}
    >
      {props.children}
    </div>
  );
}
