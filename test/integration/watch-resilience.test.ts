// Watches survive etcd going away: the watch cache resumes from the revision it applied, so a client's
// stream continues without gaps or repeats once etcd is back.
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'resilient';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

it('a watch open while etcd restarts receives every later change exactly once', async () => {
  const from = (await ts.api.post(DEPLOYMENTS, aDeployment('before'))).body.metadata.resourceVersion;
  const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${from}`);
  await ts.api.patch(`${DEPLOYMENTS}/before`, { spec: { replicas: 2 } });
  const [first] = await watch.next(1);
  expect(first?.type).toBe('MODIFIED');

  if (!ts.etcd.restart) throw new Error('this test needs a local etcd process');
  await ts.etcd.restart(1500);
  // Writes succeed again once the server's etcd client has reconnected.
  await eventually(
    async () => (await ts.api.post(DEPLOYMENTS, aDeployment('after-1'))).status === 201,
    20_000,
    'writes after the restart',
  );
  await ts.api.post(DEPLOYMENTS, aDeployment('after-2'));
  await ts.api.delete(`${DEPLOYMENTS}/before`);

  const events = await watch.next(3, 20_000);
  expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
    'ADDED after-1',
    'ADDED after-2',
    'DELETED before',
  ]);
  await expect(watch.next(1, 1000)).rejects.toThrow(/timed out/);
  watch.close();
}, 60_000);
