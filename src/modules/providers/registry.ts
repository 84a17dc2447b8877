import { bigqueryProvider } from './bigquery.provider.js';
import { csvProvider } from './csv.provider.js';
import { demoProvider } from './demo.provider.js';
import { duckdbProvider } from './duckdb.provider.js';
import { googleAdsProvider } from './google-ads.provider.js';
import { httpJsonProvider } from './http-json.provider.js';
import { metaAdsProvider } from './meta-ads.provider.js';
import { postgresProvider } from './postgres.provider.js';
import type { AnyProvider } from './provider.js';

/** The built-in providers, by name. A new provider is one module plus one line here. */
export const PROVIDERS: ReadonlyMap<string, AnyProvider> = new Map(
  [
    demoProvider,
    csvProvider,
    httpJsonProvider,
    postgresProvider,
    duckdbProvider,
    bigqueryProvider,
    googleAdsProvider,
    metaAdsProvider,
  ].map((p) => [p.name, p as AnyProvider]),
);

export const PROVIDER_NAMES = [...PROVIDERS.keys()];

export function providerFor(name: string): AnyProvider | undefined {
  return PROVIDERS.get(name);
}
