// /metrics in Kubernetes 1.26's shape: stability prefixes, etcd latency, long-running watches, hidden metrics.
import { aDeployment } from '../helpers/fixtures';
import { createNamespace, startTestServer, uniqueName, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

async function scrape(server: TestServer = ts): Promise<string> {
  const res = await server.api.get('/metrics');
  expect(res.status).toBe(200);
  return res.text;
}

/** The value of the first sample of `name` whose labels contain every `labels` fragment. */
function sample(text: string, name: string, ...labels: string[]): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((f) => l.includes(f)));
  return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('help texts and types', () => {
  it.each([
    [
      'apiserver_request_total',
      'counter',
      '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    ],
    [
      'apiserver_request_duration_seconds',
      'histogram',
      '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    ],
    [
      'apiserver_longrunning_requests',
      'gauge',
      '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    ],
    [
      'apiserver_requested_deprecated_apis',
      'gauge',
      '[STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    ],
    [
      'apiserver_storage_objects',
      'gauge',
      '[STABLE] Number of stored objects at the time of last check split by kind.',
    ],
    [
      'etcd_request_duration_seconds',
      'histogram',
      '[ALPHA] Etcd request latency in seconds for each operation and object type.',
    ],
    ['apiserver_watch_events_total', 'counter', '[ALPHA] Number of events sent in watch clients'],
  ])('%s is a %s with Kubernetes help', async (name, type, help) => {
    const text = await scrape();
    expect(text).toContain(`# HELP ${name} ${help}\n`);
    expect(text).toContain(`# TYPE ${name} ${type}\n`);
  });

  it('uses kube-apiserver request duration buckets from 5ms to 60s', async () => {
    await ts.api.get('/apis/apps/v1/deployments');
    const text = await scrape();
    const bounds = text
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('apiserver_request_duration_seconds_bucket{') &&
          l.includes('verb="LIST"') &&
          l.includes('resource="deployments"'),
      )
      .map((l) => /le="([^"]+)"/.exec(l)?.[1]);
    expect(bounds).toEqual([
      '0.005',
      '0.025',
      '0.05',
      '0.1',
      '0.2',
      '0.4',
      '0.6',
      '0.8',
      '1',
      '1.25',
      '1.5',
      '2',
      '3',
      '4',
      '5',
      '6',
      '8',
      '10',
      '15',
      '20',
      '30',
      '45',
      '60',
      '+Inf',
    ]);
  });
});

describe('request and storage samples', () => {
  it('counts a create with its Kubernetes labels and times the etcd calls it made', async () => {
    const ns = uniqueName('metrics');
    await createNamespace(ts.api, ns);
    expect((await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('m1'))).status).toBe(201);
    expect((await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, aDeployment('m2'))).status).toBe(
      201,
    );
    const text = await scrape();
    expect(
      sample(
        text,
        'apiserver_request_total',
        'verb="POST"',
        'dry_run=""',
        'group="apps"',
        'version="v1"',
        'resource="deployments"',
        'subresource=""',
        'scope="resource"',
        'component="apiserver"',
        'code="201"',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'apiserver_request_total', 'verb="POST"', 'dry_run="All"', 'resource="deployments"', 'code="201"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'etcd_request_duration_seconds_count', 'operation="create"', 'type="deployments.apps"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'etcd_request_duration_seconds_count', 'operation="create"', 'type="namespaces"'),
    ).toBeGreaterThanOrEqual(1);
    await eventually(
      async () => sample(await scrape(), 'apiserver_storage_objects', 'resource="deployments.apps"') >= 1,
      5000,
      'the deployment to be counted',
    );
  });

  it('keeps apiserver_longrunning_requests up while a watch is open and down after it closes', async () => {
    const labels = ['verb="WATCH"', 'group="apps"', 'version="v1"', 'resource="deployments"', 'scope="cluster"'];
    const before = sample(await scrape(), 'apiserver_longrunning_requests', ...labels);
    const watch = await openWatch(ts.url, '/apis/apps/v1/deployments?watch=1');
    const during = sample(await scrape(), 'apiserver_longrunning_requests', ...labels);
    expect(during).toBe((Number.isNaN(before) ? 0 : before) + 1);
    watch.close();
    await eventually(
      async () => sample(await scrape(), 'apiserver_longrunning_requests', ...labels) === during - 1,
      5000,
      'the gauge to go down',
    );
  });
});

describe('hidden metrics', () => {
  it('hides apiserver_registered_watchers (deprecated in 1.23.0) by default', async () => {
    expect(await scrape()).not.toContain('apiserver_registered_watchers');
  });

  it('shows it with --show-hidden-metrics-for-version=1.25, marked deprecated', async () => {
    const shown = await startTestServer(['--show-hidden-metrics-for-version=1.25']);
    try {
      const watch = await openWatch(shown.url, '/apis/apps/v1/deployments?watch=1');
      const text = await scrape(shown);
      expect(text).toContain(
        '# HELP apiserver_registered_watchers [ALPHA] (Deprecated from 1.23) Number of currently registered watchers for a given resources\n',
      );
      expect(sample(text, 'apiserver_registered_watchers', 'group="apps"', 'version="v1"', 'kind="Deployment"')).toBe(
        1,
      );
      watch.close();
    } finally {
      await shown.stop();
    }
  });
});
