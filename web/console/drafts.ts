import { useEffect, useState } from 'preact/hooks';

const PREFIX = 'context-hub.console.draft:';

/**
 * An editor's unsaved text, kept in sessionStorage as it is typed: a 401 that sends the user back
 * to sign-in (even through the identity provider's pages) finds it again. Cleared once saved.
 */
export function useDraft<T>(key: string, initial: T): [T, (value: T) => void, () => void, boolean] {
  const stored = sessionStorage.getItem(PREFIX + key);
  const [value, setValue] = useState<T>(stored ? (JSON.parse(stored) as T) : initial);
  const [restored] = useState(stored !== null);
  useEffect(() => {
    const again = sessionStorage.getItem(PREFIX + key);
    setValue(again ? (JSON.parse(again) as T) : initial);
  }, [key]);
  const set = (next: T) => {
    setValue(next);
    sessionStorage.setItem(PREFIX + key, JSON.stringify(next));
  };
  const clear = () => sessionStorage.removeItem(PREFIX + key);
  return [value, set, clear, restored];
}
