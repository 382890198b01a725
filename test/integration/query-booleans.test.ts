// Boolean query parameters read as apimachinery does: anything but `false` (any case) and `0` is true (issue 14, item 2).
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'query-booleans';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const APPLY = 'application/apply-patch+yaml';

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

const applyBody = (name: string, replicas: number): Record<string, unknown> => ({
  ...aDeployment(name),
  spec: { ...aDeployment(name)['spec'], replicas },
});

describe('force (server-side apply)', () => {
  it.each([
    ['True', 'a'],
    ['TRUE', 'b'],
    ['yes', 'c'],
    ['1', 'd'],
    ['', 'e'],
  ])('force=%j takes the field over', async (value, suffix) => {
    const name = `force-${suffix}`;
    expect(
      (
        await ts.api.request('PATCH', `${DEPLOYMENTS}/${name}?fieldManager=alice`, applyBody(name, 2), {
          'Content-Type': APPLY,
        })
      ).status,
    ).toBe(201);
    const forced = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/${name}?fieldManager=bob&force=${value}`,
      applyBody(name, 5),
      { 'Content-Type': APPLY },
    );
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(5);
  });

  it.each(['False', 'FALSE', '0'])('force=%j still conflicts', async (value) => {
    const name = `noforce-${value.toLowerCase()}`;
    await ts.api.request('PATCH', `${DEPLOYMENTS}/${name}?fieldManager=alice`, applyBody(name, 2), {
      'Content-Type': APPLY,
    });
    const res = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/${name}?fieldManager=bob&force=${value}`,
      applyBody(name, 5),
      { 'Content-Type': APPLY },
    );
    expect(res.status).toBe(409);
  });
});

describe('orphanDependents', () => {
  it.each(['True', 'true', 'yes', ''])(
    'orphanDependents=%j returns the object holding the orphan finalizer',
    async (value) => {
      const name = `orphan-${value.toLowerCase() || 'empty'}`;
      await ts.api.post(DEPLOYMENTS, aDeployment(name));
      const del = await ts.api.delete(`${DEPLOYMENTS}/${name}?orphanDependents=${value}`);
      expect(del.status).toBe(200);
      expect(del.body.kind).toBe('Deployment');
      expect(del.body.metadata.finalizers).toContain('orphan');
    },
  );

  it.each(['False', '0'])('orphanDependents=%j deletes without orphaning', async (value) => {
    const name = `noorphan-${value.toLowerCase()}`;
    await ts.api.post(DEPLOYMENTS, aDeployment(name));
    const del = await ts.api.delete(`${DEPLOYMENTS}/${name}?orphanDependents=${value}`);
    expect(del.body.metadata?.finalizers ?? []).not.toContain('orphan');
  });
});

describe('watch, allowWatchBookmarks and pretty', () => {
  it.each(['True', 'yes', ''])('watch=%j makes a list a watch', async (value) => {
    await ts.api.post(DEPLOYMENTS, aDeployment(`watched-${value.toLowerCase() || 'empty'}`));
    const res = await ts.api.get(`${DEPLOYMENTS}?watch=${value}&timeoutSeconds=1`);
    expect(res.status).toBe(200);
    expect(res.text.split('\n')[0]).toContain('"type":"ADDED"');
  });

  it('watch=FALSE is a list', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?watch=FALSE`);
    expect(res.body.kind).toBe('DeploymentList');
  });

  it.each([
    ['True', true],
    ['FALSE', false],
    ['0', false],
    ['', true],
  ])('pretty=%j indents: %s', async (value, indented) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?pretty=${value}`);
    expect(res.text.includes('\n  ')).toBe(indented);
  });
});
