import { createStore } from './store.js';

/**
 * The path prefix the console lives under ('/console/', or '/hub/console/' behind a proxy's
 * prefix) and the API's prefix: both read from where the app was loaded.
 */
const at = location.pathname.indexOf('/console/');
export const BASE = at >= 0 ? location.pathname.slice(0, at + '/console/'.length) : '/console/';
export const API_BASE = BASE.slice(0, -'/console/'.length);

/** The route: the path under BASE split into segments, and the query. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

function read(): Route {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return {
    parts: rest.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(location.search),
  };
}

export const route = createStore<Route>(read());

/** In-app navigations so far: the first page keeps the browser's focus; later ones move it to the heading. */
export const navigationCount = { navigations: 0 };

export const href = (path: string) => `${BASE}${path.replace(/^\//, '')}`;

export function navigate(path: string, replace = false): void {
  const url = href(path);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  if (!replace) navigationCount.navigations += 1;
  route.set(read());
  if (!replace) window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  navigationCount.navigations += 1;
  route.set(read());
});

// Same-app links navigate without a reload; modified clicks (new tab) keep the browser's behaviour.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const a = (event.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(url.pathname.slice(BASE.length) + url.search);
});
