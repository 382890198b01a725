// Every PATCH, subresources included, checks the patched object's name against the URL (issue 14, item 10).
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'patch-names';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  expect((await ts.api.post(DEPLOYMENTS, aDeployment('x'))).status).toBe(201);
});
afterAll(() => ts.stop());

const MISMATCH = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the name of the object (other) does not match the name on the URL (x)',
  reason: 'BadRequest',
  code: 400,
};

describe('a patch renaming the object', () => {
  it.each([
    ['scale', 'application/merge-patch+json', { metadata: { name: 'other' }, spec: { replicas: 9 } }],
    ['scale', 'application/strategic-merge-patch+json', { metadata: { name: 'other' }, spec: { replicas: 9 } }],
    [
      'scale',
      'application/json-patch+json',
      [
        { op: 'replace', path: '/metadata/name', value: 'other' },
        { op: 'replace', path: '/spec/replicas', value: 9 },
      ],
    ],
    [
      'scale',
      'application/apply-patch+yaml',
      { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'other' }, spec: { replicas: 9 } },
    ],
    ['', 'application/merge-patch+json', { metadata: { name: 'other' }, spec: { replicas: 9 } }],
    ['status', 'application/merge-patch+json', { metadata: { name: 'other' }, status: { replicas: 9 } }],
  ])('/%s with %s answers 400 and changes nothing', async (sub, contentType, body) => {
    const before = (await ts.api.get(`${DEPLOYMENTS}/x`)).body;
    // (apply is forced: a conflict on replicas comes before the name check, as upstream)
    const force = contentType.startsWith('application/apply-patch') ? '&force=true' : '';
    const path = `${DEPLOYMENTS}/x${sub ? `/${sub}` : ''}?fieldManager=renamer${force}`;
    const res = await ts.api.request('PATCH', path, body, { 'Content-Type': contentType });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(MISMATCH);
    const after = (await ts.api.get(`${DEPLOYMENTS}/x`)).body;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect((await ts.api.get(`${DEPLOYMENTS}/other`)).status).toBe(404);
  });

  it('a scale patch keeping the name still works', async () => {
    const res = await ts.api.patch(`${DEPLOYMENTS}/x/scale`, { metadata: { name: 'x' }, spec: { replicas: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(3);
  });
});
