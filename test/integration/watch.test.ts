import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'watching';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('watch (basic)', () => {
  it('starts with synthetic ADDED events, then streams changes in order', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('w1'));
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1`);
    expect(watch.status).toBe(200);
    const [initial] = await watch.next(1);
    expect(initial).toMatchObject({
      type: 'ADDED',
      object: { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'w1' } },
    });

    await ts.api.post(DEPLOYMENTS, aDeployment('w2'));
    await ts.api.patch(`${DEPLOYMENTS}/w2`, { spec: { replicas: 3 } });
    const deleted = await ts.api.delete(`${DEPLOYMENTS}/w2`);
    expect(deleted.status).toBe(200);
    const events = await watch.next(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[1]?.object.spec.replicas).toBe(3);
    expect(Number(events[2]?.object.metadata.resourceVersion)).toBeGreaterThan(
      Number(events[1]?.object.metadata.resourceVersion),
    );
    watch.close();
  });

  it('sends only changes after a given resourceVersion', async () => {
    const created = (await ts.api.post(DEPLOYMENTS, aDeployment('w3'))).body;
    const watch = await openWatch(
      ts.url,
      `${DEPLOYMENTS}?watch=true&resourceVersion=${created.metadata.resourceVersion}`,
    );
    await ts.api.patch(`${DEPLOYMENTS}/w3`, { metadata: { labels: { touched: 'yes' } } });
    const [event] = await watch.next(1);
    expect(event).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'w3', labels: { touched: 'yes' } } } });
    watch.close();
  });

  it('filters by selector and turns stop-matching into DELETED', async () => {
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&labelSelector=stage%3Dlive`);
    const obj = aDeployment('w4');
    obj['metadata'].labels.stage = 'live';
    await ts.api.post(DEPLOYMENTS, obj);
    await ts.api.patch(`${DEPLOYMENTS}/w4`, { metadata: { labels: { stage: 'retired' } } });
    const events = await watch.next(2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    watch.close();
  });

  it('watches a single object by metadata.name and ends at timeoutSeconds', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('w5'));
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&fieldSelector=metadata.name%3Dw5&timeoutSeconds=1`);
    const [event] = await watch.next(1);
    expect(event?.object.metadata.name).toBe('w5');
    await watch.ended;
  });

  it('ends a watch with a negative timeoutSeconds at once (a deadline already past)', async () => {
    const started = Date.now();
    const res = await fetch(
      `${ts.url}${DEPLOYMENTS}?watch=1&resourceVersion=${(await ts.api.get(DEPLOYMENTS)).body.metadata.resourceVersion}&timeoutSeconds=-1`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
