import { z } from 'zod';

/**
 * Where a platform's API lives: its origin, or a proxy or test server standing in for it, with an
 * optional path prefix. The provider adds the API's own path and version, so a query string or a
 * fragment here would be lost or misplaced: both are refused when the connection is saved.
 */
export function apiBaseUrl(defaultUrl: string) {
  return z
    .url({ protocol: /^https?$/ })
    .refine((value) => {
      const url = new URL(value);
      return url.search === '' && url.hash === '';
    }, 'give the origin (optionally with a path prefix), without a query or fragment')
    .default(defaultUrl)
    .describe(`The API's origin, optionally with a path prefix (a proxy, a regional endpoint); default ${defaultUrl}.`);
}

/** `base` joined with path segments, each encoded; a trailing slash on `base` is tolerated. */
export function apiUrl(base: string, ...segments: string[]): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}/${segments.map((s) => encodeURIComponent(s).replace(/%3A/gi, ':')).join('/')}`;
  return url;
}
