import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { aDeployment, anHpa } from '../helpers/fixtures';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

describe('namespaces', () => {
  it('exist at start-up for default, kube-system, kube-public and kube-node-lease', async () => {
    const list = await ts.api.get('/api/v1/namespaces');
    expect(list.body.items.map((n: any) => n.metadata.name)).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']),
    );
    const ns = (await ts.api.get('/api/v1/namespaces/default')).body;
    expect(ns).toMatchObject({
      spec: { finalizers: ['orch'] },
      status: { phase: 'Active' },
      metadata: { labels: { 'orch.io/metadata.name': 'default' } },
    });
  });

  it('refuses content in a namespace that does not exist with 404', async () => {
    const res = await ts.api.post('/apis/apps/v1/namespaces/nowhere/deployments', aDeployment('x'));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      reason: 'NotFound',
      message: 'namespaces "nowhere" not found',
      details: { name: 'nowhere', kind: 'namespaces' },
    });
  });

  it('refuses to delete the default namespace with 403', async () => {
    const res = await ts.api.delete('/api/v1/namespaces/default');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      reason: 'Forbidden',
      message: 'namespaces "default" is forbidden: this namespace may not be deleted',
    });
  });

  it('validates namespace names as DNS labels', async () => {
    const res = await ts.api.post('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'a.b' },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(
      /^Namespace "a\.b" is invalid: metadata\.name: Invalid value: "a\.b": a lowercase RFC 1123 label/,
    );
  });

  it('terminates: refuses new content with 403, removes everything in it, then itself', async () => {
    await createNamespace(ts.api, 'doomed');
    await ts.api.post('/apis/apps/v1/namespaces/doomed/deployments', aDeployment('web'));
    await ts.api.post('/apis/autoscaling/v1/namespaces/doomed/horizontalpodautoscalers', anHpa('web'));
    const held = aDeployment('held', {});
    held['metadata'].finalizers = ['example.com/hold'];
    await ts.api.post('/apis/apps/v1/namespaces/doomed/deployments', held);

    const del = await ts.api.delete('/api/v1/namespaces/doomed');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ kind: 'Namespace', status: { phase: 'Terminating' } });
    expect(del.body.metadata.deletionTimestamp).toBeDefined();

    const late = await ts.api.post('/apis/apps/v1/namespaces/doomed/deployments', aDeployment('late'));
    expect(late.status).toBe(403);
    expect(late.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'deployments.apps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      details: {
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace doomed is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
    });

    const again = await ts.api.delete('/api/v1/namespaces/doomed');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Operation cannot be fulfilled on namespaces "doomed": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
    );

    await eventually(
      async () => (await ts.api.get('/apis/apps/v1/namespaces/doomed/deployments/web')).status === 404,
      10_000,
      'deployment removal',
    );
    await eventually(
      async () =>
        (await ts.api.get('/apis/autoscaling/v1/namespaces/doomed/horizontalpodautoscalers/web')).status === 404,
      10_000,
      'hpa removal',
    );
    // The finalizer-held object keeps the namespace until it is released.
    const heldNow = await ts.api.get('/apis/apps/v1/namespaces/doomed/deployments/held');
    expect(heldNow.body.metadata.deletionTimestamp).toBeDefined();
    expect((await ts.api.get('/api/v1/namespaces/doomed')).status).toBe(200);
    await ts.api.patch('/apis/apps/v1/namespaces/doomed/deployments/held', { metadata: { finalizers: null } });
    await eventually(
      async () => (await ts.api.get('/api/v1/namespaces/doomed')).status === 404,
      15_000,
      'namespace removal',
    );
  });

  it("records the namespace controller's deletion conditions while finalizer-held content remains", async () => {
    await createNamespace(ts.api, 'stuck');
    const held = aDeployment('held', {});
    held['metadata'].finalizers = ['example.com/hold'];
    await ts.api.post('/apis/apps/v1/namespaces/stuck/deployments', held);
    expect((await ts.api.delete('/api/v1/namespaces/stuck')).status).toBe(200);

    const conditions = async (): Promise<any[]> =>
      (await ts.api.get('/api/v1/namespaces/stuck')).body.status.conditions ?? [];
    await eventually(async () => (await conditions()).length === 5, 10_000, 'deletion conditions');
    expect(
      (await conditions()).map(({ lastTransitionTime, ...c }) => ({ ...c, at: typeof lastTransitionTime })),
    ).toEqual([
      {
        type: 'NamespaceDeletionDiscoveryFailure',
        status: 'False',
        reason: 'ResourcesDiscovered',
        message: 'All resources successfully discovered',
        at: 'string',
      },
      {
        type: 'NamespaceDeletionGroupVersionParsingFailure',
        status: 'False',
        reason: 'ParsedGroupVersions',
        message: 'All legacy kube types successfully parsed',
        at: 'string',
      },
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
        at: 'string',
      },
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message: 'Some resources are remaining: deployments.apps has 1 resource instances',
        at: 'string',
      },
      {
        type: 'NamespaceFinalizersRemaining',
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
        at: 'string',
      },
    ]);
    // Written as kube-controller-manager's namespace controller writes them: an Update of the status subresource.
    const entries: Array<{ manager: string; operation: string; subresource?: string }> = (
      await ts.api.get('/api/v1/namespaces/stuck')
    ).body.metadata.managedFields;
    expect(entries.map(({ manager, operation, subresource }) => ({ manager, operation, subresource }))).toContainEqual({
      manager: 'kube-controller-manager',
      operation: 'Update',
      subresource: 'status',
    });
    await ts.api.patch('/apis/apps/v1/namespaces/stuck/deployments/held', { metadata: { finalizers: null } });
    await eventually(
      async () => (await ts.api.get('/api/v1/namespaces/stuck')).status === 404,
      15_000,
      'namespace removal',
    );
  });
});

describe('namespace cascade at scale', () => {
  it('removes 1,000 objects of several kinds, a page at a time, then the namespace', async () => {
    await createNamespace(ts.api, 'crowded');
    const names = Array.from({ length: 1000 }, (_, i) => `d${i}`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map((n) => ts.api.post('/apis/apps/v1/namespaces/crowded/deployments', aDeployment(n))),
      );
    }
    await Promise.all(
      ['h1', 'h2', 'h3'].map((n) =>
        ts.api.post('/apis/autoscaling/v1/namespaces/crowded/horizontalpodautoscalers', anHpa(n)),
      ),
    );
    expect(
      (await ts.api.get('/apis/apps/v1/namespaces/crowded/deployments?limit=1')).body.metadata.remainingItemCount,
    ).toBe(999);
    expect((await ts.api.delete('/api/v1/namespaces/crowded')).status).toBe(200);
    await eventually(
      async () => (await ts.api.get('/api/v1/namespaces/crowded')).status === 404,
      60_000,
      'namespace removal',
    );
    expect((await ts.api.get('/apis/apps/v1/namespaces/crowded/deployments')).body.items).toEqual([]);
    expect((await ts.api.get('/apis/autoscaling/v1/namespaces/crowded/horizontalpodautoscalers')).body.items).toEqual(
      [],
    );
  }, 120_000);
});
