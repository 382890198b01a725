import { PassThrough } from 'node:stream';
import { createLogger } from './logging';

function capture(): { stream: PassThrough; lines: () => string[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

/** The keys of a JSON object line in the order written, duplicates included (JSON.parse would keep only the last). */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  const depthOf = (i: number): number => {
    let depth = 0;
    let inString = false;
    for (let j = 0; j < i; j++) {
      const c = line[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
    }
    return depth;
  };
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)":/g)) if (depthOf(match.index) === 1) keys.push(match[1]!);
  return keys;
}

describe('createLogger (json)', () => {
  it('writes a subsystem child logger`s component once, even under a worker`s bindings', () => {
    const out = capture();
    const root = createLogger({ level: 'info', format: 'json', destination: out.stream });
    const worker = root.child({ worker: 1, pid: 4242 });
    worker.child({ component: 'etcd' }).info('etcd member lost');
    root.info('serving');
    const [subsystem, plain] = out.lines();
    const keys = topLevelKeys(subsystem!);
    expect(keys.filter((k) => k === 'component')).toEqual(['component']);
    expect(new Set(keys).size).toBe(keys.length);
    expect(JSON.parse(subsystem!)).toMatchObject({ component: 'etcd', worker: 1, pid: 4242, msg: 'etcd member lost' });
    const plainKeys = topLevelKeys(plain!);
    expect(new Set(plainKeys).size).toBe(plainKeys.length);
    expect(JSON.parse(plain!)).toMatchObject({ level: 30, msg: 'serving' });
  });

  it('redacts a logged request`s Authorization header', () => {
    const out = capture();
    const root = createLogger({ level: 'info', format: 'json', destination: out.stream });
    root.info({ req: { headers: { authorization: 'Bearer secret-token' } } }, 'request');
    expect(out.lines()[0]).not.toContain('secret-token');
  });
});
