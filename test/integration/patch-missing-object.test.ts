// Kubernetes looks the object up before it decodes a (non-apply) patch: patching a missing object is a 404 whatever the
// body, so "patch, create on 404" clients (client-node's default patch type is JSON patch) see NotFound, not BadRequest.
import { startTestServer, createNamespace, uniqueName, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const ns = uniqueName('patch-missing');
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${ns}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, ns);
  expect((await ts.api.post(DEPLOYMENTS, aDeployment('present'))).status).toBe(201);
});
afterAll(() => ts.stop());

describe('patch bodies that do not decode', () => {
  it.each([
    ['application/json-patch+json', { spec: { replicas: 2 } }],
    ['application/json-patch+json', '[{"op":'],
    ['application/merge-patch+json', '{"spec":'],
    ['application/strategic-merge-patch+json', '["not", "an", "object"]'],
  ])('%s %j on a missing Deployment is 404 NotFound', async (contentType, body) => {
    for (const path of [`${DEPLOYMENTS}/ghost`, `${DEPLOYMENTS}/ghost/status`, `${DEPLOYMENTS}/ghost/scale`]) {
      const res = await ts.api.patch(path, body, contentType);
      expect({ path, status: res.status, reason: res.body.reason, message: res.body.message }).toEqual({
        path,
        status: 404,
        reason: 'NotFound',
        message: 'deployments.apps "ghost" not found',
      });
    }
  });

  it('the same JSON patch with an object body on an existing Deployment is 400 with the Go decoder text', async () => {
    const res = await ts.api.patch(`${DEPLOYMENTS}/present`, { spec: { replicas: 2 } }, 'application/json-patch+json');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
  });

  it('a malformed merge patch on an existing Deployment is still 400 and changes nothing', async () => {
    const before = (await ts.api.get(`${DEPLOYMENTS}/present`)).body.metadata.resourceVersion;
    const res = await ts.api.patch(`${DEPLOYMENTS}/present/scale`, '{"spec":', 'application/merge-patch+json');
    expect(res.status).toBe(400);
    expect((await ts.api.get(`${DEPLOYMENTS}/present`)).body.metadata.resourceVersion).toBe(before);
  });
});
