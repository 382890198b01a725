// Namespaces have no deletecollection in Kubernetes 1.26 (the namespace REST wraps the store without DeleteCollection):
// discovery, OpenAPI and the HTTP route all agree, so clients generated from them (client-node) and kubectl see the same.
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

describe('namespaces collection verbs', () => {
  it('discovery lists namespaces without deletecollection and deployments with it', async () => {
    const core = (await ts.api.get('/api/v1')).body;
    expect(core.resources.find((r: { name: string }) => r.name === 'namespaces').verbs).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    const apps = (await ts.api.get('/apis/apps/v1')).body;
    expect(apps.resources.find((r: { name: string }) => r.name === 'deployments').verbs).toContain('deletecollection');
  });

  it('DELETE on /api/v1/namespaces is 405 and deletes nothing', async () => {
    const res = await ts.api.delete('/api/v1/namespaces');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    const names = (await ts.api.get('/api/v1/namespaces')).body.items.map(
      (n: { metadata: { name: string } }) => n.metadata.name,
    );
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']));
    const deployments = await ts.api.delete(
      '/apis/apps/v1/namespaces/default/deployments?labelSelector=none%3Dmatches',
    );
    expect(deployments.status).toBe(200);
  });

  it('OpenAPI documents no deleteCoreV1CollectionNamespace operation', async () => {
    const v3 = (await ts.api.get('/openapi/v3/api/v1')).body;
    const collection = v3.paths['/api/v1/namespaces'];
    expect(Object.keys(collection)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(collection).not.toHaveProperty('delete');
    const v2 = (await ts.api.get('/openapi/v2')).body;
    expect(v2.paths['/api/v1/namespaces']).not.toHaveProperty('delete');
    expect(v2.paths['/apis/apps/v1/namespaces/{namespace}/deployments'].delete.operationId).toBe(
      'deleteAppsV1CollectionNamespacedDeployment',
    );
  });
});
