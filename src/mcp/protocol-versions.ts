/** The protocol revision the stateless handler (and the fast path) serves. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The 2025-era revisions served on sessions, newest first: an unknown request falls back to the first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
