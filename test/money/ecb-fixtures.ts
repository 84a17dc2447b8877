import http from 'node:http';
import { crc32, deflateRawSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

/** ECB feed documents in the shapes the ECB publishes them, built from a few days of rates. */
export function ecbXml(days: { time: string; rates: Record<string, string> }[], quote = "'"): string {
  const q = quote;
  const cubes = days
    .map(
      (d) =>
        `\t\t<Cube time=${q}${d.time}${q}>\n${Object.entries(d.rates)
          .map(([c, r]) => `\t\t\t<Cube currency=${q}${c}${q} rate=${q}${r}${q}/>`)
          .join('\n')}\n\t\t</Cube>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes}
\t</Cube>
</gesmes:Envelope>`;
}

/**
 * Hostile variants of a valid one-day feed: "billion laughs" (ten entities each ten times the one
 * before, 10^9 "lol"s when expanded), an external entity naming a local file, an entity never
 * declared, and elements nested 100,000 deep around the rates.
 */
export function hostileEcbXml(kind: 'laughs' | 'external' | 'undeclared' | 'deep'): string {
  const feed = ecbXml([{ time: '2026-04-17', rates: { USD: '1.1690' } }]).replace(
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '',
  );
  const laughs = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) laughs.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  switch (kind) {
    case 'laughs':
      return `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${laughs.join('\n')}\n]>\n${feed.replace('Reference rates', '&lol9;')}`;
    case 'external':
      return `<!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n${feed.replace('Reference rates', '&x;')}`;
    case 'undeclared':
      return feed.replace('Reference rates', '&lol9;');
    case 'deep':
      return feed.replace('\t<Cube>', `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}\t<Cube>`);
  }
}

/** eurofxref.csv (the daily CSV): "14 April 2026" dates, a space after each comma, a trailing comma. */
export function ecbDailyCsv(day: string, rates: Record<string, string>): string {
  const codes = Object.keys(rates);
  return `Date, ${codes.join(', ')}, \n${day}, ${codes.map((c) => rates[c]).join(', ')}, \n`;
}

/** eurofxref-hist.csv: ISO dates, newest first, N/A cells, a trailing comma. */
export function ecbHistCsv(codes: string[], rows: [string, ...string[]][]): string {
  return `${[`Date,${codes.join(',')},`, ...rows.map((r) => `${r.join(',')},`)].join('\n')}\n`;
}

export interface FeedServer {
  url: string;
  serve(body: string | Uint8Array, options?: { status?: number; type?: string }): void;
  close(): Promise<void>;
}

/** A loopback HTTP server standing in for the ECB: answers /feed with whatever the test set last. */
export async function startFeedServer(): Promise<FeedServer> {
  let current: { body: string | Uint8Array; status: number; type: string } = {
    body: '',
    status: 404,
    type: 'text/plain',
  };
  const server = http.createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/feed') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(current.status, { 'content-type': current.type });
    res.end(current.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/feed?key=secret-in-query`,
    serve(body, options = {}) {
      current = { body, status: options.status ?? 200, type: options.type ?? 'application/xml' };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A one-entry deflated ZIP, as the ECB ships eurofxref.zip (written with node:zlib's own CRC-32). */
export function zipOf(name: string, text: string): Uint8Array {
  const data = Buffer.from(text, 'utf8');
  const compressed = deflateRawSync(data);
  const crc = crc32(data);
  const nameBytes = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + nameBytes.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, compressed, central, nameBytes, end]);
}
