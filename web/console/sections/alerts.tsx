import type { ComponentType } from 'preact';
import { href } from '../router.js';
import { type Permission, useProject } from '../ui.js';
import { Deliveries } from './alert-deliveries.js';
import { Destinations } from './alert-destinations.js';
import { Mutes } from './alert-mutes.js';
import { Rules } from './alert-rules.js';

const PAGES: { id: string; label: string; permission: Permission; page: ComponentType }[] = [
  { id: 'destinations', label: 'Destinations', permission: 'admin', page: Destinations },
  { id: 'rules', label: 'Rules', permission: 'data.read', page: Rules },
  { id: 'mutes', label: 'Mutes', permission: 'data.read', page: Mutes },
  { id: 'deliveries', label: 'Delivery log', permission: 'admin', page: Deliveries },
];

/** Alerts: /console/<project>/alerts/<page>; pages the role may not use are not offered. */
function Alerts() {
  const { project, path, can } = useProject();
  const pages = PAGES.filter((p) => can(p.permission));
  const current = pages.find((p) => p.id === path[1]) ?? pages[0]!;
  const Page = current.page;
  return (
    <div class="alerts stack">
      <nav aria-label="Alert pages" class="tabs">
        {pages.map((p) => (
          <a
            key={p.id}
            class={p.id === current.id ? 'tab current' : 'tab'}
            href={href(`${project.id}/alerts/${p.id}`)}
            aria-current={p.id === current.id ? 'page' : undefined}
          >
            {p.label}
          </a>
        ))}
      </nav>
      <Page />
    </div>
  );
}

export const sections = { alerts: Alerts };
