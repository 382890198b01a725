// Discovery: / (the path list), /version, /api, /api/<version>, /apis, /apis/<group>, /apis/<group>/<version>;
// the documents are built in ../../endpoints/discovery.
import type { Request, Response, Router } from 'express';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../../endpoints/discovery/documents';
import { negotiateResponse } from '../../endpoints/negotiation';
import { writeResponse } from '../../endpoints/handlers/write-response';
import { isPretty } from '../../endpoints/resource-handler';
import { VERSION_INFO } from '../version';
import { getOnly, localsOf, param } from './route';

export interface DiscoveryDeps {
  registry: ResourceRegistry;
  /** `host:port` clients should use, for /api's serverAddressByClientCIDRs. */
  serverAddress: () => string;
}

function rootPaths(registry: ResourceRegistry): string[] {
  const paths = [
    '/api',
    '/api/v1',
    '/apis',
    '/healthz',
    '/livez',
    '/metrics',
    '/openapi/v2',
    '/openapi/v3',
    '/readyz',
    '/version',
  ];
  for (const g of registry.groups()) {
    if (g.group === '') continue;
    paths.push(`/apis/${g.group}`, ...g.versions.map((v) => `/apis/${g.group}/${v}`));
  }
  return paths.sort();
}

function write(req: Request, res: Response, document: unknown): void {
  writeResponse(res, 200, document, negotiateResponse(req.headers.accept, false), {
    pretty: isPretty(req, localsOf(res).query),
  });
}

export function discoveryRoutes(router: Router, { registry, serverAddress }: DiscoveryDeps): void {
  router.get('/', getOnly, (req, res) => write(req, res, { paths: rootPaths(registry) }));
  router.get('/version', getOnly, (req, res) => write(req, res, VERSION_INFO));
  router.get('/api', getOnly, (req, res) =>
    write(req, res, apiVersions({ clientCIDR: '0.0.0.0/0', serverAddress: serverAddress() })),
  );
  router.get('/api/:version', getOnly, (req, res, next) => {
    const version = param(req, 'version');
    if (!registry.servesGroupVersion('', version)) return next();
    write(req, res, apiResourceList(registry, '', version));
  });
  router.get('/apis', getOnly, (req, res) => write(req, res, apiGroupList(registry)));
  router.get('/apis/:group', getOnly, (req, res, next) => {
    const document = apiGroup(registry, param(req, 'group'));
    if (document === undefined) return next();
    write(req, res, document);
  });
  router.get('/apis/:group/:version', getOnly, (req, res, next) => {
    const [group, version] = [param(req, 'group'), param(req, 'version')];
    if (!registry.servesGroupVersion(group, version)) return next();
    write(req, res, apiResourceList(registry, group, version));
  });
}
