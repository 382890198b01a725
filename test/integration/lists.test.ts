import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'lists';
const OTHER = 'lists-other';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  await createNamespace(ts.api, OTHER);
  for (const [name, env, tier] of [
    ['a1', 'prod', 'web'],
    ['a2', 'prod', 'db'],
    ['a3', 'dev', 'web'],
    ['a4', 'dev', ''],
    ['a5', 'qa', 'web'],
  ]) {
    const obj = aDeployment(name ?? '');
    obj['metadata'].labels = { ...obj['metadata'].labels, env, ...(tier ? { tier } : {}) };
    await ts.api.post(DEPLOYMENTS, obj);
  }
  await ts.api.post(`/apis/apps/v1/namespaces/${OTHER}/deployments`, aDeployment('b1'));
});
afterAll(() => ts.stop());

const names = (body: any): string[] => body.items.map((i: any) => i.metadata.name);

describe('label and field selectors', () => {
  it.each([
    ['env=prod', ['a1', 'a2']],
    ['env==prod', ['a1', 'a2']],
    ['env!=prod', ['a3', 'a4', 'a5']],
    ['env in (dev,qa)', ['a3', 'a4', 'a5']],
    ['env notin (dev,qa)', ['a1', 'a2']],
    ['tier', ['a1', 'a2', 'a3', 'a5']],
    ['!tier', ['a4']],
    ['env=prod,tier=web', ['a1']],
  ])('labelSelector %s', async (selector, expected) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?labelSelector=${encodeURIComponent(selector)}`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(expected);
  });

  it.each([
    ['metadata.name=a3', ['a3']],
    ['metadata.name!=a3', ['a1', 'a2', 'a4', 'a5']],
    [`metadata.namespace==${NS}`, ['a1', 'a2', 'a3', 'a4', 'a5']],
  ])('fieldSelector %s', async (selector, expected) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?fieldSelector=${encodeURIComponent(selector)}`);
    expect(names(res.body)).toEqual(expected);
  });

  it('filters the all-namespaces list by namespace field', async () => {
    const res = await ts.api.get(`/apis/apps/v1/deployments?fieldSelector=metadata.namespace%3D${OTHER}`);
    expect(names(res.body)).toEqual(['b1']);
  });

  it('answers 400 for a malformed label selector', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?labelSelector=${encodeURIComponent('env in prod')}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      reason: 'BadRequest',
      message: "unable to parse requirement: found 'prod' expected: '('",
    });
  });

  it('answers 400 for an unsupported field selector', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?fieldSelector=spec.replicas%3D1`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});

describe('collections', () => {
  it('lists every namespace on the all-namespaces path, items without kind', async () => {
    const res = await ts.api.get('/apis/apps/v1/deployments');
    expect(res.body).toMatchObject({ kind: 'DeploymentList', apiVersion: 'apps/v1' });
    expect(names(res.body)).toEqual(expect.arrayContaining(['a1', 'b1']));
    expect(res.body.items[0].kind).toBeUndefined();
  });

  it('returns an empty items array, never null', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?labelSelector=env%3Dnone`);
    expect(res.text).toContain('"items":[]');
  });

  it('pages with limit and continue at one resourceVersion', async () => {
    const first = await ts.api.get(`${DEPLOYMENTS}?limit=2`);
    expect(names(first.body)).toEqual(['a1', 'a2']);
    expect(first.body.metadata.remainingItemCount).toBe(3);
    expect(first.body.metadata.continue).toBeTruthy();
    await ts.api.post(DEPLOYMENTS, aDeployment('a0'));
    const second = await ts.api.get(`${DEPLOYMENTS}?limit=2&continue=${first.body.metadata.continue}`);
    expect(names(second.body)).toEqual(['a3', 'a4']);
    expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    const third = await ts.api.get(`${DEPLOYMENTS}?limit=2&continue=${second.body.metadata.continue}`);
    expect(names(third.body)).toEqual(['a5']);
    expect(third.body.metadata.continue).toBeUndefined();
    expect(third.body.metadata.remainingItemCount).toBeUndefined();
    await ts.api.delete(`${DEPLOYMENTS}/a0`);
  });

  it('ignores limit when APIListChunking is disabled', async () => {
    const off = await startTestServer(['--feature-gates=APIListChunking=false']);
    try {
      await createNamespace(off.api, 'x');
      for (const n of ['d1', 'd2', 'd3']) await off.api.post('/apis/apps/v1/namespaces/x/deployments', aDeployment(n));
      const res = await off.api.get('/apis/apps/v1/namespaces/x/deployments?limit=1');
      expect(names(res.body)).toEqual(['d1', 'd2', 'd3']);
      expect(res.body.metadata.continue).toBeUndefined();
    } finally {
      await off.stop();
    }
  });

  it('answers 504 with Retry-After when asked for a resourceVersion newer than etcd has', async () => {
    const current = Number((await ts.api.get(DEPLOYMENTS)).body.metadata.resourceVersion);
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${current + 100000}`);
    expect(res.status).toBe(504);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toMatchObject({
      reason: 'Timeout',
      code: 504,
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    });
    expect(res.body.message).toMatch(
      new RegExp(`^Timeout: Too large resource version: ${current + 100000}, current: \\d+$`),
    );
  });

  it('serves an Exact list at an older revision with that revision', async () => {
    const before = (await ts.api.get(DEPLOYMENTS)).body;
    await ts.api.post(DEPLOYMENTS, aDeployment('later'));
    const exact = await ts.api.get(
      `${DEPLOYMENTS}?resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    expect(exact.body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(names(exact.body)).toEqual(names(before));
    await ts.api.delete(`${DEPLOYMENTS}/later`);
  });

  it('answers a Table for kubectl with the kind columns', async () => {
    const res = await ts.api.get(DEPLOYMENTS, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    expect(res.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(res.body.columnDefinitions.map((c: any) => c.name).slice(0, 5)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
    ]);
    expect(res.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a1' } });
  });

  it('answers YAML when asked', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}/a1`, { Accept: 'application/yaml' });
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.text).toContain('kind: Deployment');
  });
});
