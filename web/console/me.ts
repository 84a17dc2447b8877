import { createStore } from './store.js';
import type { Me } from './ui.js';

/** Who is signed in (GET /api/org/me), once the session is known. */
export const meStore = createStore<Me | undefined>(undefined);
