import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, UsageError } from './flags';
import { defaultProfile, parseDuration, parseProfile, ProfileError } from './profile';
import { planner } from './workload';

function problemsOf(text: string): string[] {
  try {
    parseProfile(text, 'p.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ProfileError);
    return (err as ProfileError).problems;
  }
  throw new Error('expected a ProfileError');
}

describe('profile parser', () => {
  it('reads a YAML profile onto the defaults', () => {
    const p = parseProfile(
      'duration: 2m\nwarmup: 500ms\nrate: 200\nkinds: [deployments, hpa]\nmix:\n  get: 3\n  create: 1\nobjectSize: 4096\nseed: 9\n',
      'p.yaml',
    );
    expect(p.duration).toBe(120);
    expect(p.warmup).toBe(0.5);
    expect(p.rate).toBe(200);
    expect(p.kinds).toEqual(['deployments', 'horizontalpodautoscalers']);
    expect(p.mix.get).toBe(3);
    expect(p.mix.create).toBe(1);
    expect(p.mix.delete).toBe(0);
    expect(p.objectSize).toBe(4096);
    expect(p.seed).toBe(9);
    expect(p.namespaces).toBe(defaultProfile().namespaces);
  });

  it('reads JSON too', () => {
    expect(parseProfile('{"model":"closed","concurrency":16}', 'p.json').model).toBe('closed');
  });

  it('names every bad field with what it expected and what it got', () => {
    const problems = problemsOf(
      'duration: soon\nrate: -5\nkinds: [pods]\nmix: {gets: 1, create: x}\nmodel: fast\nwatchers: 1.5\nspeed: 3\n',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^duration: must be a duration like 60, "60s".*got "soon"/),
        expect.stringMatching(/^rate: must be a number ≥ 0.1.*got -5/),
        expect.stringMatching(
          /^kinds: unknown kind "pods" \(known: deployments, horizontalpodautoscalers, flowschemas\)/,
        ),
        expect.stringMatching(/^mix\.gets: unknown operation \(known: create, get/),
        expect.stringMatching(/^mix\.create: weight must be a number ≥ 0, got "x"/),
        expect.stringMatching(/^model: must be "open" .* or "closed"/),
        expect.stringMatching(/^watchers: must be an integer ≥ 0/),
        expect.stringMatching(/^speed: unknown field \(known: duration, warmup, model/),
      ]),
    );
    expect(problems).toHaveLength(8);
  });

  it('rejects a file that is not a map, not YAML, or a mix with nothing to do', () => {
    expect(problemsOf('- a\n- b\n')[0]).toMatch(/top level must be a map/);
    expect(problemsOf('rate: [1\n')[0]).toMatch(/^not valid YAML or JSON/);
    expect(problemsOf('mix: {get: 0}\n')[0]).toMatch(/at least one operation needs a weight above 0/);
    expect(problemsOf('mix: {get: 1}\ninitialObjects: 0\n')[0]).toMatch(/need objects/);
  });

  it('the error message lists the source and each problem on its own line', () => {
    expect(() => parseProfile('rate: 0\n', 'my-profile.yaml')).toThrow(
      /invalid load-test profile \(my-profile\.yaml\):\n {2}- rate: /,
    );
  });

  it('parses durations', () => {
    expect(parseDuration('1m30s')).toBe(90);
    expect(parseDuration(15)).toBe(15);
    expect(parseDuration('15')).toBe(15);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('ten')).toBeUndefined();
    expect(parseDuration(-1)).toBeUndefined();
  });
});

describe('command line', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'lt-profile-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('flags override the profile file, --concurrency alone selects the closed model', () => {
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'rate: 10\nduration: 30s\nnamespaces: 2\n');
    const cmd = parseArgs(['--profile', file, '--duration=5s', '--concurrency', '3', '--seed', '11']);
    if (cmd.kind !== 'run') throw new Error('expected a run');
    expect(cmd.profile).toMatchObject({ duration: 5, namespaces: 2, model: 'closed', concurrency: 3, seed: 11 });
    expect(cmd.runId).toBe('sb');
    expect(cmd.connection).toBeUndefined();
  });

  it('reads the current context of a kubeconfig (server, token, insecure)', () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: abc}}]
`,
    );
    const cmd = parseArgs(['--kubeconfig', file]);
    if (cmd.kind !== 'run') throw new Error('expected a run');
    expect(cmd.connection).toEqual({ server: 'https://127.0.0.1:6443', insecureSkipTlsVerify: true, token: 'abc' });
  });

  it('bad flags are usage errors; bad values are profile errors naming the flag field', () => {
    expect(() => parseArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseArgs(['--token', 'x'])).toThrow(/need --server or --kubeconfig/);
    expect(() => parseArgs(['--rate', 'fast'])).toThrow(/rate: must be a number/);
    expect(() => parseArgs(['compare', 'a.json'])).toThrow(/compare needs two result files/);
  });
});

describe('planner', () => {
  it('yields the same operation sequence for the same seed and another for another seed', () => {
    const seq = (seed: number): string[] => {
      const next = planner({ ...defaultProfile(), seed });
      return Array.from({ length: 200 }, () => {
        const p = next();
        return `${p.op}/${p.kind}/${p.namespaceIndex}/${p.pick.toFixed(6)}`;
      });
    };
    expect(seq(5)).toEqual(seq(5));
    expect(seq(5)).not.toEqual(seq(6));
  });

  it('follows the mix weights', () => {
    const next = planner({
      ...defaultProfile(),
      seed: 1,
      mix: {
        ...defaultProfile().mix,
        get: 90,
        create: 10,
        update: 0,
        'patch-merge': 0,
        'patch-strategic': 0,
        apply: 0,
        list: 0,
        'list-rv0': 0,
        'list-selector': 0,
        delete: 0,
      },
    });
    const ops = Array.from({ length: 5000 }, () => next().op);
    expect(new Set(ops)).toEqual(new Set(['get', 'create']));
    const gets = ops.filter((o) => o === 'get').length / ops.length;
    expect(gets).toBeGreaterThan(0.87);
    expect(gets).toBeLessThan(0.93);
  });
});
