import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';

describe('the outbound settings', () => {
  it('default to refusing private networks, 5 tries and 5 minutes per request, no Nango', () => {
    expect(loadConfig({})).toMatchObject({
      outboundAllowPrivateNetworks: false,
      outboundRetryMaxTries: 5,
      outboundRetryMaxSeconds: 300,
      outboundRetryBaseMs: 1000,
      nangoUrl: undefined,
      nangoSecretKey: undefined,
    });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }).outboundAllowPrivateNetworks).toBe(true);
  });

  it('stop the start with one clear line for a bad value, never showing a key', () => {
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(
      'OUTBOUND_ALLOW_PRIVATE_NETWORKS="maybe" is not allowed: true or false',
    );
    expect(() => loadConfig({ OUTBOUND_RETRY_MAX_TRIES: '0' })).toThrow(
      'OUTBOUND_RETRY_MAX_TRIES="0" is not allowed: an integer from 1 to 50',
    );
    expect(() => loadConfig({ NANGO_URL: 'https://api.nango.dev' })).toThrow(
      'NANGO_SECRET_KEY=unset is not allowed: required with NANGO_URL',
    );
    let message = '';
    try {
      loadConfig({ NANGO_SECRET_KEY: 'sk-live-very-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('NANGO_URL=unset is not allowed: required with NANGO_SECRET_KEY, e.g. https://api.nango.dev');
    expect(() => loadConfig({ NANGO_URL: 'ftp://x', NANGO_SECRET_KEY: 'k' })).toThrow(/^NANGO_URL="ftp:\/\/x"/);
    const nango = loadConfig({ NANGO_URL: 'https://api.nango.dev/', NANGO_SECRET_KEY: 'k' });
    expect(nango).toMatchObject({ nangoUrl: 'https://api.nango.dev', nangoWebhookSigningKey: 'k' });
  });
});
