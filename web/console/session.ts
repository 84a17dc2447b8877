import { createStore } from './store.js';

export type AuthMode = 'disabled' | 'static' | 'oauth';

export interface SessionState {
  /** 'unknown' before the first check; 'expired' after a 401 on a session that had worked. */
  status: 'unknown' | 'signed-out' | 'signed-in' | 'expired';
  mode: AuthMode;
}

/** The static token lives in sessionStorage (this tab, this browser session); never localStorage. */
const STATIC_KEY = 'context-hub.console.token';

let memoryToken: string | undefined;
export const sessionState = createStore<SessionState>({ status: 'unknown', mode: 'disabled' });

/**
 * The credentials of this tab. OAuth access tokens are kept in memory only (a reload signs in again,
 * silently when the provider's session is still on); the static token is typed once per session.
 */
export const session = {
  token(): string | undefined {
    // Read whatever this tab holds, even before the mode is known (boot asks /api/org/me early).
    return memoryToken ?? sessionStorage.getItem(STATIC_KEY) ?? undefined;
  },
  setToken(token: string): void {
    if (sessionState.get().mode === 'static') sessionStorage.setItem(STATIC_KEY, token);
    else memoryToken = token;
  },
  signedIn(): void {
    sessionState.set({ ...sessionState.get(), status: 'signed-in' });
  },
  expired(): void {
    const state = sessionState.get();
    if (state.mode === 'disabled') return;
    sessionStorage.removeItem(STATIC_KEY);
    memoryToken = undefined;
    // Every call in flight answers 401 at once: the first turns a working session into 'expired'
    // (a dialog over the page, the page kept); the others leave it so.
    const worked = state.status === 'signed-in' || state.status === 'expired';
    sessionState.set({ ...state, status: worked ? 'expired' : 'signed-out' });
  },
  signOut(): void {
    sessionStorage.removeItem(STATIC_KEY);
    memoryToken = undefined;
    sessionState.set({ ...sessionState.get(), status: 'signed-out' });
  },
};
