// LIST/WATCH read-path answers checked against kube-apiserver 1.26 (k8s.io/apiserver pkg/storage/etcd3/store.go).
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'read-audit';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  for (const name of ['d1', 'd2', 'd3']) await ts.api.post(DEPLOYMENTS, aDeployment(name));
});
afterAll(() => ts.stop());

const token = (json: string): string => Buffer.from(json).toString('base64url');

describe('continue token of an unknown version', () => {
  // decodeContinue: fmt.Errorf("continue key is not valid: server does not recognize this encoded version %q", c.APIVersion)
  it.each([
    [token('{"v":"x/v9","rv":5,"start":"a"}'), 'version "x/v9"'],
    [token('{}'), 'version ""'],
  ])('%s is 400 with the version quoted', async (continueToken, tail) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?limit=1&continue=${continueToken}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      code: 400,
      message: `invalid continue token: continue key is not valid: server does not recognize this encoded ${tail}`,
    });
  });
});
