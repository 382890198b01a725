import { PassThrough } from 'node:stream';
import { createLogger } from './logging';
import { repeatedTopLevelKeys, topLevelKeys } from '../../test/helpers/json-keys';

function capture(): { stream: PassThrough; lines: () => string[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

describe('createLogger (json)', () => {
  it('finds a key written twice (the check below can fail)', () => {
    expect(repeatedTopLevelKeys('{"a":1,"b":{"a":2},"c":"\\"a\\": x","a":3}')).toEqual(['a']);
    expect(topLevelKeys('{"a":1,"b":{"a":2},"c":"\\"d\\": x"}')).toEqual(['a', 'b', 'c']);
  });

  it('writes a subsystem child logger`s component once, even under a worker`s bindings', () => {
    const out = capture();
    const root = createLogger({ level: 'info', format: 'json', destination: out.stream });
    const worker = root.child({ worker: 1, pid: 4242 });
    worker.child({ component: 'etcd' }).info('etcd member lost');
    root.info('serving');
    const [subsystem, plain] = out.lines();
    const keys = topLevelKeys(subsystem!);
    expect(keys.filter((k) => k === 'component')).toEqual(['component']);
    expect(repeatedTopLevelKeys(subsystem!)).toEqual([]);
    expect(JSON.parse(subsystem!)).toMatchObject({ component: 'etcd', worker: 1, pid: 4242, msg: 'etcd member lost' });
    expect(repeatedTopLevelKeys(plain!)).toEqual([]);
    expect(JSON.parse(plain!)).toMatchObject({ level: 30, msg: 'serving' });
  });

  it('redacts a logged request`s Authorization header', () => {
    const out = capture();
    const root = createLogger({ level: 'info', format: 'json', destination: out.stream });
    root.info({ req: { headers: { authorization: 'Bearer secret-token' } } }, 'request');
    expect(out.lines()[0]).not.toContain('secret-token');
  });
});
