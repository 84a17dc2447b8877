import { defineRoute } from '../../platform/http/route.js';
import type { SystemService } from './system.service.js';

/** Probes: public, exempt from Host validation, never touching anything but the store. */
export function systemRoutes(system: SystemService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/healthz',
      summary: 'Liveness: the process serves HTTP',
      tags: ['system'],
      rule: { public: true },
      handler: async () => system.health(),
    }),
    defineRoute({
      method: 'GET',
      url: '/readyz',
      summary: 'Readiness: storage reachable and every migration applied',
      tags: ['system'],
      rule: { public: true },
      handler: async () => system.ready(),
    }),
  ];
}
