// --logging-format text|json and which requests are logged at which level, read from the built binary's stdout (issue 14, item 5).
import { spawn, type ChildProcess } from 'node:child_process';
import { APISERVER_BINARY } from '../helpers/binary-server';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';
import { repeatedTopLevelKeys } from '../helpers/json-keys';

let etcd: TestEtcd;
beforeAll(async () => {
  etcd = await startTestEtcd();
});
afterAll(() => etcd.stop());

interface Run {
  lines: string[];
  port: number;
  stop(): Promise<void>;
}

/** Starts the binary with stdout piped and waits for its "serving" line (in either format). */
async function run(flags: string[]): Promise<Run> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      APISERVER_BINARY,
      '--port',
      '0',
      '--etcd-servers',
      etcd.clientUrl,
      '--etcd-prefix',
      `/logging-${Date.now()}`,
      ...flags,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let partial = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no serving line: ${lines.join('\n')}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const m = /"port":(\d+)/.exec(line);
        if (m && line.includes('serving')) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
  });
  return {
    lines,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function missingObject(r: Run): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${r.port}/apis/apps/v1/namespaces/default/deployments/nope`, {
    headers: { 'User-Agent': 'log-format-test/1.0' },
  });
  expect(res.status).toBe(404);
  await new Promise((done) => setTimeout(done, 200));
}

describe('--logging-format', () => {
  it('json: every line is one JSON object; a fast 404 writes no request line at the default level', async () => {
    const r = await run(['--logging-format=json']);
    try {
      await missingObject(r);
      const lines = r.lines.filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(lines.some((l) => l.includes('log-format-test/1.0'))).toBe(false);
    } finally {
      await r.stop();
    }
  });

  it('json with --log-level=debug: every request has its line', async () => {
    const r = await run(['--logging-format=json', '--log-level=debug']);
    try {
      await missingObject(r);
      // Start-up, controllers, elections, watch caches and requests: no line writes a key twice.
      const repeated = r.lines.filter(Boolean).filter((l) => repeatedTopLevelKeys(l).length > 0);
      expect(repeated).toEqual([]);
      const line = r.lines.filter((l) => l.includes('log-format-test/1.0')).map((l) => JSON.parse(l));
      expect(line).toEqual([
        expect.objectContaining({ msg: 'request completed', verb: 'GET', code: 404, name: 'nope' }),
      ]);
    } finally {
      await r.stop();
    }
  });

  it('text: one readable line per event, not JSON, with level and message first', async () => {
    const r = await run(['--logging-format=text', '--log-level=debug']);
    try {
      await missingObject(r);
      const lines = r.lines.filter(Boolean);
      for (const line of lines) {
        expect(line.startsWith('{')).toBe(false);
        expect(line).toMatch(
          /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL)( \([^)]*\))?: /,
        );
      }
      const request = lines.filter((l) => l.includes('log-format-test/1.0'));
      expect(request).toHaveLength(1);
      expect(request[0]).toMatch(/DEBUG( \(nope\))?: request completed .*"code":404/);
    } finally {
      await r.stop();
    }
  });

  it('piped stdout without the flag is json; an unknown format is refused', async () => {
    const r = await run([]);
    try {
      expect(() => JSON.parse(r.lines[0] ?? '')).not.toThrow();
    } finally {
      await r.stop();
    }
    const bad = spawn(process.execPath, [APISERVER_BINARY, '--logging-format=xml'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    bad.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain(
      'invalid argument "xml" for "--logging-format" flag: format: Unsupported value: "xml": supported values: "json", "text"',
    );
  });
});
