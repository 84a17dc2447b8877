import { useEffect, useRef, useState } from 'preact/hooks';
import { type ConsoleConfig, startSignIn } from './oauth.js';
import { API_BASE, route } from './router.js';
import { session } from './session.js';
import { ErrorBox, Field, messageOf } from './ui.js';

/**
 * Sign-in as the service's auth mode says. Static: the token typed once, checked against the API,
 * kept for this browser session. OAuth: off to the identity provider (authorization code + PKCE).
 * After an expiry it is a dialog over the page, so whatever was being edited stays where it was.
 */
export function SignIn(props: { config: ConsoleConfig; onSignedIn(): void; expired?: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = 'Sign in · Context Hub';
  }, []);
  const here = () => {
    const r = route.get();
    const path = r.parts.map(encodeURIComponent).join('/');
    const query = r.query.toString();
    return query ? `${path}?${query}` : path;
  };
  const submitStatic = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const check = await fetch(`${API_BASE}/api/org/me`, {
      headers: { authorization: `Bearer ${token.trim()}` },
    }).catch((e) => e as Error);
    setBusy(false);
    if (check instanceof Error) return setError(check);
    if (check.status === 401) return setError(new Error('This token is not accepted by the service.'));
    session.setToken(token.trim());
    session.signedIn();
    props.onSignedIn();
  };
  const oauth = async () => {
    setBusy(true);
    setError(null);
    try {
      await startSignIn(props.config.oauth!, here());
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const body = (
    <div class="card signin stack">
      <h1 ref={heading} tabIndex={-1} id="signin-title">
        {props.expired ? 'Your session has ended' : 'Sign in to Context Hub'}
      </h1>
      {props.expired && <p>Sign in again to go on; what you were editing is kept.</p>}
      {props.config.auth_mode === 'static' && (
        <form onSubmit={submitStatic} class="stack">
          <Field label="Access token" hint="SERVICE_STATIC_TOKEN; kept in this tab until it closes.">
            {(attrs) => (
              <input
                {...attrs}
                type="password"
                autocomplete="off"
                value={token}
                onInput={(e) => setToken(e.currentTarget.value)}
                required
              />
            )}
          </Field>
          <button type="submit" class="action primary" disabled={busy || !token.trim()}>
            Sign in
          </button>
        </form>
      )}
      {props.config.auth_mode === 'oauth' && (
        <>
          <p class="muted">You sign in with your organization's identity provider.</p>
          <p class="small mono">{props.config.oauth?.issuer}</p>
          <button type="button" class="action primary" onClick={oauth} disabled={busy}>
            Sign in with your identity provider
          </button>
        </>
      )}
      <ErrorBox error={error ? new Error(messageOf(error)) : null} />
    </div>
  );
  if (props.expired)
    return (
      <div class="overlay">
        <div role="dialog" aria-modal="true" aria-labelledby="signin-title">
          {body}
        </div>
      </div>
    );
  return <main class="console-main signin-page">{body}</main>;
}
