import { z, type ZodType } from 'zod';
import type { AnyProvider } from './provider.js';
import { PROVIDERS } from './registry.js';

export const ProviderCatalogueOutput = z
  .object({
    providers: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        nango: z.boolean().describe('Whether a connection may take its credentials from Nango (config.nango).'),
        config_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of config (as it is sent).'),
        secrets_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of secrets (as they are sent).'),
        nango_secrets_schema: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('JSON Schema of the secrets a Nango connection still stores here, when there are any.'),
      }),
    ),
  })
  .describe('Every built-in provider, with the schemas a form or a script builds a connection from.');
export type ProviderCatalogueOutput = z.infer<typeof ProviderCatalogueOutput>;

/** As the OpenAPI document renders schemas: the input side, refinements left to creation. */
function jsonSchemaOf(schema: ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

function entryOf(provider: AnyProvider): ProviderCatalogueOutput['providers'][number] {
  return {
    name: provider.name,
    description: provider.description,
    nango: provider.nango === true,
    config_schema: jsonSchemaOf(provider.configSchema),
    secrets_schema: jsonSchemaOf(provider.secretsSchema),
    ...(provider.nangoSecretsSchema ? { nango_secrets_schema: jsonSchemaOf(provider.nangoSecretsSchema) } : {}),
  };
}

let built: ProviderCatalogueOutput | undefined;

/** Built once: the providers are fixed for the life of the process. */
export function providerCatalogue(): ProviderCatalogueOutput {
  built ??= { providers: [...PROVIDERS.values()].map(entryOf) };
  return built;
}
