import { useState } from 'preact/hooks';

/**
 * The state a Skill or Knowledge page shares: the open tab, the version shown (undefined: the
 * current one) and the notice after a write. A save or a restore returns to the view of the new
 * current version and says which it is.
 */
export function useVersionPage() {
  const [tab, setTab] = useState('view');
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  return {
    tab,
    setTab,
    version,
    notice,
    /** Shows an earlier version. */
    open(v: number) {
      setVersion(v);
      setTab('view');
    },
    /** After a write that made version `v`: the current version, reloaded, with a notice. */
    wrote(how: 'Saved' | 'Restored', v: number, reload: () => void) {
      setNotice(`${how} as version ${v}.`);
      setVersion(undefined);
      setTab('view');
      reload();
    },
  };
}
