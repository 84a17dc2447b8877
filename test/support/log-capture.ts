import { Writable } from 'node:stream';

/** A log destination for tests that read what the service logged: every JSON line, parsed. */
export function logCapture(): { destination: Writable; lines: Record<string, unknown>[]; text(): string } {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { destination, lines, text: () => raw.join('\n') };
}
