import { defineRoute } from '../../platform/http/route.js';
import { ProviderCatalogueOutput, providerCatalogue } from './providers.catalogue.js';

export function providerRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/providers',
      summary:
        'List the built-in providers with their description, config_schema and secrets_schema (JSON Schema), ' +
        'to build a new-connection form',
      tags: ['credentials'],
      rule: { permission: 'data.read' },
      response: ProviderCatalogueOutput,
      handler: async () => providerCatalogue(),
    }),
  ];
}
