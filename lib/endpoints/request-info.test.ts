import { parseRequestInfo } from './request-info';

const parse = (method: string, url: string) => {
  const u = new URL(url, 'http://x');
  return parseRequestInfo(method, u.pathname, u.searchParams);
};

describe('parseRequestInfo', () => {
  it.each([
    [
      'GET',
      '/apis/apps/v1/namespaces/a/deployments',
      { verb: 'list', apiGroup: 'apps', apiVersion: 'v1', namespace: 'a', resource: 'deployments', name: '' },
    ],
    ['GET', '/apis/apps/v1/deployments?watch=true', { verb: 'watch', namespace: '', resource: 'deployments' }],
    ['GET', '/apis/apps/v1/deployments?watch=0', { verb: 'list' }],
    ['PROPFIND', '/apis/apps/v1/namespaces/a/deployments/web', { verb: '', resource: 'deployments', name: 'web' }],
    ['CONNECT', '/apis/apps/v1/namespaces/a/deployments', { verb: '', resource: 'deployments' }],
    ['GET', '/api/v1/proxy/namespaces/a/pods/web', { verb: 'proxy', namespace: 'a', resource: 'pods', name: 'web' }],
    [
      'POST',
      '/apis/apps/v1/proxy/namespaces/a/deployments/web',
      { verb: 'proxy', resource: 'deployments', name: 'web' },
    ],
    ['GET', '/apis/apps/v1/deployments?watch', { verb: 'watch' }],
    [
      'GET',
      '/apis/apps/v1/watch/namespaces/a/deployments/web',
      { verb: 'watch', namespace: 'a', name: 'web', watchPath: true },
    ],
    [
      'PUT',
      '/apis/apps/v1/namespaces/a/deployments/web/status',
      { verb: 'update', name: 'web', subresource: 'status' },
    ],
    ['DELETE', '/apis/apps/v1/namespaces/a/deployments', { verb: 'deletecollection' }],
    ['DELETE', '/apis/apps/v1/namespaces/a/deployments/web', { verb: 'delete', name: 'web' }],
    ['POST', '/api/v1/namespaces', { verb: 'create', apiGroup: '', resource: 'namespaces', namespace: '' }],
    ['GET', '/api/v1/namespaces/dev', { verb: 'get', resource: 'namespaces', name: 'dev', namespace: 'dev' }],
    [
      'PUT',
      '/api/v1/namespaces/dev/status',
      { verb: 'update', resource: 'namespaces', name: 'dev', subresource: 'status' },
    ],
    [
      'PUT',
      '/api/v1/namespaces/dev/finalize',
      { verb: 'update', resource: 'namespaces', name: 'dev', subresource: 'finalize' },
    ],
    [
      'PATCH',
      '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas/x',
      { verb: 'patch', resource: 'flowschemas', name: 'x' },
    ],
  ])('%s %s', (method, url, expected) => {
    expect(parse(method, url)).toMatchObject({ isResourceRequest: true, ...expected });
  });

  it.each([['/apis'], ['/apis/apps'], ['/apis/apps/v1'], ['/api'], ['/api/v1'], ['/healthz'], ['/version']])(
    'treats %s as a non-resource path',
    (path) => {
      expect(parse('GET', path)).toEqual({ isResourceRequest: false, path, verb: 'get' });
    },
  );
});
