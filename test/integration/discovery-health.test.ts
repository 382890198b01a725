import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

describe('discovery', () => {
  it('serves /api with the core version and the server address', async () => {
    const res = await ts.api.get('/api');
    expect(res.body).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${ts.server.port}` }],
    });
  });

  it('lists the named groups in /apis', async () => {
    const res = await ts.api.get('/apis');
    expect(res.body.kind).toBe('APIGroupList');
    expect(res.body.groups.map((g: any) => g.name)).toEqual([
      // 1.26's group priorities; a group Kubernetes names otherwise is listed right after that name (kubectl
      // maps manifests by it, and resolves bare resource names to the first group).
      'apps',
      'events.k8s.io',
      'events.orch.io',
      'authentication.k8s.io',
      'authentication.orch.io',
      'authorization.k8s.io',
      'authorization.orch.io',
      'autoscaling',
      'rbac.authorization.k8s.io',
      'rbac.authorization.orch.io',
      'admissionregistration.k8s.io',
      'admissionregistration.orch.io',
      'flowcontrol.apiserver.k8s.io',
      'flowcontrol.apiserver.orch.io',
    ]);
    expect(res.body.groups[0]).toEqual({
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
  });

  it('describes a group', async () => {
    const res = await ts.api.get('/apis/autoscaling');
    expect(res.body).toMatchObject({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'autoscaling',
      preferredVersion: { groupVersion: 'autoscaling/v2' },
    });
  });

  it('lists resources with verbs, short names and subresources', async () => {
    const res = await ts.api.get('/apis/apps/v1');
    expect(res.body).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
    expect(res.body.resources).toEqual([
      {
        name: 'deployments',
        singularName: '',
        namespaced: true,
        kind: 'Deployment',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['deploy'],
        categories: ['all'],
        storageVersionHash: '8aSe+NMegvE=',
      },
      {
        name: 'deployments/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      },
      {
        name: 'deployments/status',
        singularName: '',
        namespaced: true,
        kind: 'Deployment',
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const core = await ts.api.get('/api/v1');
    expect(core.body.resources.map((r: any) => r.name)).toEqual([
      'events',
      'namespaces',
      'namespaces/finalize',
      'namespaces/status',
      'serviceaccounts',
    ]);
    expect(core.body.resources[1]).toMatchObject({
      shortNames: ['ns'],
      namespaced: false,
      storageVersionHash: 'Q3oi5N2YM8M=',
    });
    const hpa = await ts.api.get('/apis/autoscaling/v1');
    expect(hpa.body.resources[0]).toMatchObject({ name: 'horizontalpodautoscalers', shortNames: ['hpa'] });
  });

  it('serves /version with the Kubernetes release it follows', async () => {
    const res = await ts.api.get('/version');
    expect(res.body).toMatchObject({ major: '1', minor: '26' });
    expect(res.body.gitVersion).toMatch(/^v1\.26\./);
  });
});

describe('health', () => {
  it.each(['/healthz', '/livez', '/readyz'])('%s answers ok', async (path) => {
    const res = await ts.api.get(path);
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('lists every check with ?verbose', async () => {
    const res = await ts.api.get('/readyz?verbose');
    expect(res.text).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/bootstrap-controller ok\n[+]poststarthook/priority-and-fairness-config-producer ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]shutdown ok\nreadyz check passed\n',
    );
    const live = await ts.api.get('/livez?verbose');
    expect(live.text).not.toContain('shutdown');
  });

  it('excludes checks and warns about unknown exclusions', async () => {
    const res = await ts.api.get('/livez?verbose&exclude=etcd&exclude=nope');
    expect(res.text).toContain('[+]etcd excluded: ok\n');
    expect(res.text).toContain(
      'warn: some health checks cannot be excluded: no matches for "nope"\nlivez check passed\n',
    );
  });

  it('serves single checks and 404 for unknown ones', async () => {
    expect((await ts.api.get('/readyz/etcd')).text).toBe('ok');
    const missing = await ts.api.get('/livez/nope');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('404 page not found\n');
  });
});

describe('what etcd holds', () => {
  it('stores objects under {prefix}/{group}/{resource}/{namespace}/{name} without resourceVersion', async () => {
    await createNamespace(ts.api, 'etcdview');
    const created = (await ts.api.post('/apis/apps/v1/namespaces/etcdview/deployments', aDeployment('web'))).body;
    const client = new Etcd3({ hosts: ts.etcd.clientUrl });
    try {
      const raw = await client.get('/registry/apps/deployments/etcdview/web').exec();
      const kv = raw.kvs[0];
      expect(kv).toBeDefined();
      const stored = JSON.parse(kv?.value.toString() ?? '{}');
      expect(stored.metadata.resourceVersion).toBeUndefined();
      expect(stored.metadata.uid).toBe(created.metadata.uid);
      expect(kv?.mod_revision).toBe(created.metadata.resourceVersion);
      expect(await client.get('/registry/namespaces/etcdview').string()).toContain('"name":"etcdview"');
    } finally {
      client.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('fails readyz once shutdown starts while livez stays ok', async () => {
    const other = await startTestServer(['--shutdown-delay-duration=2s']);
    const stopping = other.stop();
    const ready = await other.api.get('/readyz');
    expect(ready.status).toBe(500);
    expect(ready.text).toContain('[-]shutdown failed: reason withheld\n');
    expect(ready.text).toMatch(/readyz check failed\n$/);
    expect((await other.api.get('/livez')).status).toBe(200);
    await stopping;
  });
});
