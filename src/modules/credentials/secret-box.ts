import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config.js';
import { ConfigError } from '../../platform/errors.js';

/**
 * AES-256-GCM for connection secrets at rest. The key is SECRETS_KEY, or on the embedded store a
 * key generated once into DATA_DIR/secrets.key (mode 0600). Stored form: iv(12) || tag(16) || ct.
 * Plaintext secrets exist only in memory, for the duration of one provider call.
 */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly config: Pick<Config, 'secretsKey' | 'databaseUrl' | 'dataDir'>) {}

  private getKey(): Buffer {
    if (this.key) return this.key;
    if (this.config.secretsKey) {
      this.key = Buffer.from(this.config.secretsKey, 'base64');
    } else if (this.config.databaseUrl) {
      throw new ConfigError(
        'SECRETS_KEY',
        undefined,
        'required with DATABASE_URL: 32 bytes, base64-encoded (openssl rand -base64 32)',
      );
    } else {
      this.key = loadOrCreateKeyFile(path.join(this.config.dataDir, 'secrets.key'));
    }
    return this.key;
  }

  seal(secrets: Record<string, unknown>): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.getKey(), iv);
    const ct = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ct]);
  }

  open(sealed: Uint8Array | null | undefined): Record<string, unknown> {
    if (!sealed || sealed.length === 0) return {};
    const buf = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', this.getKey(), buf.subarray(0, 12));
    decipher.setAuthTag(buf.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  }
}

function loadOrCreateKeyFile(file: string): Buffer {
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32)
      throw new ConfigError('SECRETS_KEY', undefined, `${file} must hold 32 bytes, base64-encoded`);
    return key;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another start raced us to it; then read theirs.
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return loadOrCreateKeyFile(file);
  }
}
