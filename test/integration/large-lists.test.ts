// Collections larger than gRPC's default 4 MiB message: one unpaged etcd range must still come back whole.
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startTestServer, createNamespace, ApiClient, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'large';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const COUNT = 60;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  const padding = 'p'.repeat(90 * 1024);
  for (let i = 0; i < COUNT; i++) {
    const body = aDeployment(`big-${String(i).padStart(2, '0')}`);
    body['metadata'].annotations = { padding };
    const res = await ts.api.post(DEPLOYMENTS, body);
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  }
});
afterAll(() => ts.stop());

it('lists more than 4 MiB from etcd in one response', async () => {
  const res = await ts.api.get(DEPLOYMENTS);
  expect(res.status).toBe(200);
  expect(res.text.length).toBeGreaterThan(5 * 1024 * 1024);
  expect(res.body.items).toHaveLength(COUNT);
});

it('a replica started on that etcd fills its watch cache and serves resourceVersion=0', async () => {
  const parsed = parseCommandLine(['--port=0', `--etcd-servers=${ts.etcd.clientUrl}`]);
  if (parsed.help) throw new Error('unexpected help');
  const second = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
  try {
    const res = await new ApiClient(second.url).get(`${DEPLOYMENTS}?resourceVersion=0`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(COUNT);
  } finally {
    await second.shutdown();
  }
});
