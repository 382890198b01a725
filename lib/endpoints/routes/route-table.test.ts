import type { ServedResource } from '../../registry/resource-registry';
import { fakeRegistry } from '../openapi/testing/fake-registry';
import { routesOf, serves, subresourceOf } from './route-table';

const registry = fakeRegistry();
const served = (group: string, resource: string): ServedResource => {
  const found = registry.lookup(group, 'v1', resource);
  if (!found) throw new Error(`${group}/${resource} not in the fake registry`);
  return found;
};

describe('routesOf', () => {
  it('lists the resource verbs alphabetically, without deletecollection where the collection cannot be deleted', () => {
    expect(routesOf(served('apps', 'deployments')).verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(routesOf(served('', 'namespaces')).verbs).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(serves(routesOf(served('', 'namespaces')), 'deletecollection')).toBe(false);
    expect(routesOf(served('', 'namespaces')).patchTypes).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
  });

  it('carries scope and subresources (status, scale with its own kind, PUT-only finalize)', () => {
    const deployments = routesOf(served('apps', 'deployments'));
    expect(deployments.namespaced).toBe(true);
    expect(deployments.subresources.map((s) => [s.name, s.serves, s.verbs, s.kind])).toEqual([
      ['status', 'object', ['get', 'patch', 'update'], undefined],
      ['scale', 'scale', ['get', 'patch', 'update'], { group: 'autoscaling', version: 'v1', kind: 'Scale' }],
    ]);
    const namespaces = routesOf(served('', 'namespaces'));
    expect(namespaces.namespaced).toBe(false);
    expect(subresourceOf(namespaces, 'finalize')?.verbs).toEqual(['update']);
    expect(subresourceOf(namespaces, 'scale')).toBeUndefined();
  });

  it('is built once, and again when POST-only subresources are installed later', () => {
    const accounts = served('', 'events'); // any resource: the server installs POST-only subresources after the registry is built
    const first = routesOf(accounts);
    expect(routesOf(accounts)).toBe(first);
    accounts.postSubresources = new Map([
      [
        'token',
        { handler: () => Promise.resolve(), group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      ],
    ]);
    const token = subresourceOf(routesOf(accounts), 'token');
    expect(token).toMatchObject({
      serves: 'post',
      verbs: ['create'],
      documented: false,
      kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
    });
  });
});
