/**
 * Values by key, each tagged with the version of the state it was computed from. An entry is
 * served only to a caller that presents the same version (read after that caller arrived), so a
 * change of state retires it without any invalidation message: nothing stale is ever served.
 * Least recently used entries go first; values are frozen because every caller shares them.
 * Used for search results (tagged with the project's content version) and finished MCP answers.
 */
export class VersionedCache<T extends object, V extends string | number = number> {
  private readonly entries = new Map<string, { version: V; value: T }>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity: number) {}

  get enabled(): boolean {
    return this.capacity > 0;
  }

  get(key: string, version: V): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Re-insert: Map iteration order is the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, version: V, value: T): void {
    if (!this.enabled) return;
    const current = this.entries.get(key);
    // A slower computation that read an older (numeric) version must not replace a newer value.
    if (current && typeof version === 'number' && typeof current.version === 'number' && current.version > version)
      return;
    this.entries.delete(key);
    this.entries.set(key, { version, value: deepFreeze(value) });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
