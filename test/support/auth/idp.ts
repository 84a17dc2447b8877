import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export const ISSUER = 'https://idp.test.example/';
export const AUDIENCE = 'https://context-hub.test.example/mcp';

/**
 * A real identity provider for tests: RS256 key pairs, a JWKS served over loopback HTTP (with a
 * fetch counter), and token minting with jose. Nothing in the service is faked.
 */
export class TestIdp {
  jwksFetches = 0;
  /** While true the JWKS endpoint answers 500 (an issuer outage). */
  failing = false;
  private readonly published: { kid: string; keys: KeyPair }[] = [];
  private server!: http.Server;
  url = '';
  rogue!: KeyPair;
  ec!: KeyPair;
  publicPem = '';

  static async start(): Promise<TestIdp> {
    const idp = new TestIdp();
    await idp.addKey('k1');
    idp.publicPem = await exportSPKI(idp.published[0]!.keys.publicKey);
    idp.rogue = await generateKeyPair('RS256', { extractable: true });
    idp.ec = await generateKeyPair('ES256', { extractable: true });
    idp.server = http.createServer(async (req, res) => {
      if (req.url !== '/jwks.json') {
        res.writeHead(404).end();
        return;
      }
      idp.jwksFetches += 1;
      if (idp.failing) {
        res.writeHead(500).end();
        return;
      }
      const keys: JWK[] = [];
      for (const { kid, keys: pair } of idp.published)
        keys.push({ ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => idp.server.listen(0, '127.0.0.1', resolve));
    idp.url = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}/jwks.json`;
    return idp;
  }

  async addKey(kid: string): Promise<void> {
    this.published.push({ kid, keys: await generateKeyPair('RS256', { extractable: true }) });
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      SERVICE_AUTH_MODE: 'oauth',
      OAUTH_ISSUER: ISSUER,
      OAUTH_AUDIENCE: AUDIENCE,
      OAUTH_JWKS_URL: this.url,
      ...extra,
    };
  }

  /** A token as the issuer would mint it; `options` bend one thing at a time. */
  async token(
    sub: string,
    claims: JWTPayload = {},
    options: {
      kid?: string;
      key?: 'rogue';
      iss?: string;
      aud?: string;
      expiresIn?: number;
      notBefore?: number;
      now?: Date;
    } = {},
  ): Promise<string> {
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const kid = options.kid ?? 'k1';
    const pair =
      options.key === 'rogue' ? this.rogue : (this.published.find((p) => p.kid === kid) ?? this.published[0]!).keys;
    const jwt = new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 3600));
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    return jwt.sign(pair.privateKey);
  }

  /** An unsigned token (`alg: none`) with otherwise valid claims. */
  algNone(sub: string): string {
    const now = Math.floor(Date.now() / 1000);
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub, iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 3600 })}.`;
  }

  /** The classic key-confusion attack: HS256 with the RSA public key (PEM) as the HMAC secret. */
  async hs256WithPublicKey(sub: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'k1', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(this.publicPem));
  }

  async es256(sub: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(this.ec.privateKey);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Every bad-credential case of the matrix: the Authorization header to send (undefined = none). */
export async function badCredentialCases(
  idp: TestIdp,
  sub: string,
): Promise<{ name: string; header: string | undefined }[]> {
  return [
    { name: 'no header', header: undefined },
    { name: 'malformed header', header: 'Bearer' },
    { name: 'basic scheme', header: 'Basic dXNlcjpwYXNz' },
    { name: 'wrong static token', header: `Bearer ${'w'.repeat(40)}` },
    { name: 'expired JWT', header: `Bearer ${await idp.token(sub, {}, { expiresIn: -3600 })}` },
    { name: 'wrong aud', header: `Bearer ${await idp.token(sub, {}, { aud: 'https://someone-else.example' })}` },
    { name: 'wrong iss', header: `Bearer ${await idp.token(sub, {}, { iss: 'https://evil.example/' })}` },
    { name: 'alg none', header: `Bearer ${idp.algNone(sub)}` },
    { name: 'HS256 signed with the public key', header: `Bearer ${await idp.hs256WithPublicKey(sub)}` },
    { name: 'ES256', header: `Bearer ${await idp.es256(sub)}` },
    { name: 'unknown kid', header: `Bearer ${await idp.token(sub, {}, { kid: 'no-such-kid' })}` },
    { name: 'key not in the JWKS', header: `Bearer ${await idp.token(sub, {}, { key: 'rogue' })}` },
  ];
}
