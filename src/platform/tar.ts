import zlib from 'node:zlib';

/**
 * Just enough tar for folders of text files (the hub as files): regular files written as ustar
 * with fixed metadata, so the same files always give the same bytes; read back are regular files
 * from ustar, pax (`path` records) and GNU long names. Links, devices and the like are skipped.
 */
export interface TarEntry {
  path: string;
  data: Buffer;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Splits a path over ustar's name (100 bytes) and prefix (155 bytes) fields at a "/". */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`path too long for a tar entry: ${path}`);
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { name, prefix } = splitName(entry.path);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(entry.data.length, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7), 148, 'ascii');
  return block;
}

/** A tar.gz of the entries, in the order given; identical entries give identical bytes. */
export function writeTarGz(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return zlib.gzipSync(Buffer.concat(parts));
}

export class TarFormatError extends Error {}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function number(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError('a tar header holds a size that is not octal');
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** `path=` from a pax extended header (records "LEN key=value\n"). */
function paxPath(data: Buffer): string | undefined {
  let path: string | undefined;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (!(length > 0)) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    if (record.startsWith('path=')) path = record.slice(5);
    at += length;
  }
  return path;
}

/**
 * The regular files of a tar.gz (or plain tar). At most `maxBytes` once inflated and `maxEntries`
 * entries: a small archive that inflates without end is refused, not followed.
 */
export function readTarGz(archive: Buffer, limits: { maxBytes: number; maxEntries: number }): TarEntry[] {
  let tar: Buffer;
  try {
    tar =
      archive[0] === 0x1f && archive[1] === 0x8b
        ? zlib.gunzipSync(archive, { maxOutputLength: limits.maxBytes })
        : archive;
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new TarFormatError(
      code === 'ERR_BUFFER_TOO_LARGE' ? `inflates to more than ${limits.maxBytes} bytes` : 'is not valid gzip',
    );
  }
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (sum !== number(block, 148, 8)) throw new TarFormatError('is not a tar archive (a header checksum fails)');
    const size = number(block, 124, 12);
    const type = String.fromCharCode(block[156]!);
    const dataStart = at + BLOCK;
    if (dataStart + size > tar.length) throw new TarFormatError('ends inside an entry');
    const data = tar.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const prefix = field(block, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '\0') continue;
    if (entries.length >= limits.maxEntries) throw new TarFormatError(`holds more than ${limits.maxEntries} files`);
    entries.push({ path: name, data: Buffer.from(data) });
  }
  return entries;
}
