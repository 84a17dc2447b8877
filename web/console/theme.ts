import { createStore } from './store.js';

/** The theme: the system's (prefers-color-scheme) unless the user picked one in this browser. */
const KEY = 'context-hub.console.theme';
const media = matchMedia('(prefers-color-scheme: dark)');
const chosen = () => localStorage.getItem(KEY) as 'light' | 'dark' | null;

export const theme = createStore<'light' | 'dark'>(chosen() ?? (media.matches ? 'dark' : 'light'));
const apply = (t: 'light' | 'dark') => {
  document.documentElement.dataset.theme = t;
};
apply(theme.get());
theme.subscribe(apply);
media.addEventListener('change', (e) => {
  if (!chosen()) theme.set(e.matches ? 'dark' : 'light');
});

export function toggleTheme(): void {
  const next = theme.get() === 'dark' ? 'light' : 'dark';
  localStorage.setItem(KEY, next);
  theme.set(next);
}
