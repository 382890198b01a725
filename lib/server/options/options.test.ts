import { availableParallelism } from 'node:os';
import { parseCommandLine } from './options';
import { parseDuration } from './duration';

describe('parseCommandLine', () => {
  it('uses kube-apiserver style defaults', () => {
    const parsed = parseCommandLine([]);
    expect(parsed).toMatchObject({
      help: false,
      options: { bindAddress: '127.0.0.1', port: 8080, etcdPrefix: '/registry', dataDir: './data', etcdServers: [] },
    });
  });

  it('compacts etcd every 5 minutes unless told otherwise; 0 disables', () => {
    expect(parseCommandLine([])).toMatchObject({ options: { etcdCompactionIntervalMs: 300_000 } });
    expect(parseCommandLine(['--etcd-compaction-interval=1h'])).toMatchObject({
      options: { etcdCompactionIntervalMs: 3_600_000 },
    });
    expect(parseCommandLine(['--etcd-compaction-interval=0'])).toMatchObject({
      options: { etcdCompactionIntervalMs: 0 },
    });
  });

  it('reads the in-flight limits, the APF switch and the request timeout (kube-apiserver defaults 400, 200, true, 1m)', () => {
    expect(parseCommandLine([])).toMatchObject({
      options: {
        maxRequestsInflight: 400,
        maxMutatingRequestsInflight: 200,
        enablePriorityAndFairness: true,
        requestTimeoutMs: 60_000,
      },
    });
    expect(
      parseCommandLine([
        '--max-requests-inflight=0',
        '--max-mutating-requests-inflight=0',
        '--enable-priority-and-fairness=false',
      ]),
    ).toMatchObject({
      options: { maxRequestsInflight: 0, maxMutatingRequestsInflight: 0, enablePriorityAndFairness: false },
    });
    expect(() => parseCommandLine(['--max-requests-inflight=-1'])).toThrow(
      '--max-requests-inflight can not be negative value',
    );
    expect(() => parseCommandLine(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'])).toThrow(
      '--max-requests-inflight plus --max-mutating-requests-inflight must be positive when --enable-priority-and-fairness is true',
    );
  });

  it('runs one process unless --workers asks for more; auto is the number of CPUs', () => {
    expect(parseCommandLine([])).toMatchObject({ options: { workers: 1 } });
    expect(parseCommandLine(['--workers=3'])).toMatchObject({ options: { workers: 3 } });
    expect(parseCommandLine(['--workers=auto'])).toMatchObject({ options: { workers: availableParallelism() } });
  });

  it('reads --flag=value and --flag value forms', () => {
    const parsed = parseCommandLine([
      '--port=0',
      '--etcd-servers',
      'http://127.0.0.1:2379,http://127.0.0.1:3379',
      '--shutdown-delay-duration=1m30s',
    ]);
    expect(parsed).toMatchObject({
      options: { port: 0, etcdServers: ['http://127.0.0.1:2379', 'http://127.0.0.1:3379'], shutdownDelayMs: 90_000 },
    });
  });

  it("reads the etcd TLS files (kube-apiserver's --etcd-cafile, --etcd-certfile, --etcd-keyfile)", () => {
    expect(parseCommandLine([]).help === false && parseCommandLine([])).not.toHaveProperty('options.etcdTls');
    expect(parseCommandLine(['--etcd-cafile=ca.crt', '--etcd-certfile=c.crt', '--etcd-keyfile=c.key'])).toMatchObject({
      options: { etcdTls: { caFile: 'ca.crt', certFile: 'c.crt', keyFile: 'c.key' } },
    });
    expect(parseCommandLine(['--etcd-cafile=ca.crt'])).toMatchObject({
      options: { etcdTls: { caFile: 'ca.crt', certFile: '', keyFile: '' } },
    });
  });

  it.each([
    [['--nope'], 'unknown flag: --nope'],
    [['--etcd-certfile=c.crt'], '--etcd-certfile and --etcd-keyfile must be given together'],
    [['--port=http'], 'invalid argument "http" for "--port" flag'],
    [['--port'], 'flag needs an argument: --port'],
    [
      ['--livez-grace-period=soon'],
      'invalid argument "soon" for "--livez-grace-period" flag: time: invalid duration "soon"',
    ],
    [
      ['--etcd-compaction-interval=5'],
      'invalid argument "5" for "--etcd-compaction-interval" flag: time: missing unit in duration "5"',
    ],
    [
      ['--etcd-compaction-interval=-5m'],
      'invalid argument "-5m" for "--etcd-compaction-interval" flag: must not be negative',
    ],
    [['--tls-cert-file=a.pem'], '--tls-cert-file and --tls-private-key-file must be given together'],
    [['--etcd-servers=localhost:2379'], 'invalid argument "localhost:2379" for "--etcd-servers" flag'],
    [['--workers=0'], 'invalid argument "0" for "--workers" flag: must be a positive integer or auto'],
    [['--workers=two'], 'invalid argument "two" for "--workers" flag'],
    [['--feature-gates=Bogus=true'], 'unrecognized feature gate: Bogus'],
    [['--port=70000'], '--port 70000 must be between 0 and 65535, inclusive'],
    [
      ['--bind-address=localhost'],
      'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"',
    ],
    [['--livez-grace-period=-1s'], '--livez-grace-period can not be a negative value'],
    [['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
    [['--request-timeout=-1s'], '--request-timeout can not be negative value'],
  ])('refuses %j', (args, message) => {
    expect(() => parseCommandLine(args)).toThrow(message);
  });

  it('recognises --help', () => {
    expect(parseCommandLine(['--help'])).toEqual({ help: true });
  });
});

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['10s', 10_000],
    ['1.5s', 1500],
    ['1h2m', 3_720_000],
    ['250ms', 250],
  ])('%s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('needs a unit', () => {
    expect(() => parseDuration('10')).toThrow('time: missing unit in duration "10"');
  });
});
