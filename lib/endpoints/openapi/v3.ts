// OpenAPI v3 discovery (/openapi/v3) and per group-version documents: paths, operations and GVK extensions.
// kubectl reads `x-kubernetes-group-version-kind` on PATCH operations and their `fieldValidation` parameter to
// decide that the server validates fields itself, so both the orch and the Kubernetes extension names are emitted.
// Schemas are object shells for now; the type catalog fills them in with the request-bodies work.
import { createHash } from 'node:crypto';
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';

type Json = Record<string, unknown>;

const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'pretty'];
const LIST_PARAMS = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'pretty', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds', 'watch'];
const DELETE_PARAMS = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy', 'pretty'];

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

function gvk(served: ServedResource): Json {
  const { group, version, kind } = served.definition;
  return { group, version, kind };
}

function query(names: string[]): Json[] {
  return names.map((name) => ({ name, in: 'query', schema: { type: name === 'limit' || name === 'timeoutSeconds' || name === 'gracePeriodSeconds' ? 'integer' : 'string' }, uniqueItems: true }));
}

function operation(served: ServedResource, action: string, params: string[], extraParams: Json[] = []): Json {
  const ext = gvk(served);
  const schemaRef = { $ref: `#/components/schemas/${schemaName(served)}` };
  return {
    operationId: `${action}${served.definition.kind}`,
    parameters: [...extraParams, ...query(params)],
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: schemaRef } } } },
    'x-kubernetes-action': action,
    'x-orch-action': action,
    'x-kubernetes-group-version-kind': ext,
    'x-orch-group-version-kind': ext,
  };
}

function schemaName(served: ServedResource): string {
  const { group, version, kind } = served.definition;
  return `${group === '' ? 'core' : group}.${version}.${kind}`;
}

function pathsOf(served: ServedResource): Record<string, Json> {
  const def = served.definition;
  const namespaced = def.strategy.namespaced;
  const base = `/${gvPath(def.group, def.version)}${namespaced ? '/namespaces/{namespace}' : ''}/${def.resource}`;
  const nameParam: Json = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  const nsParam: Json[] = namespaced ? [{ name: 'namespace', in: 'path', required: true, schema: { type: 'string' } }] : [];
  const paths: Record<string, Json> = {
    [base]: {
      get: operation(served, 'list', LIST_PARAMS),
      post: operation(served, 'post', WRITE_PARAMS),
      delete: operation(served, 'deletecollection', [...DELETE_PARAMS, ...LIST_PARAMS.filter((p) => p !== 'watch')]),
      parameters: nsParam,
    },
    [`${base}/{name}`]: {
      get: operation(served, 'get', ['pretty']),
      put: operation(served, 'put', WRITE_PARAMS),
      patch: operation(served, 'patch', [...WRITE_PARAMS, 'force']),
      delete: operation(served, 'delete', DELETE_PARAMS),
      parameters: [nameParam, ...nsParam],
    },
  };
  if (served.statusStore) {
    paths[`${base}/{name}/status`] = {
      get: operation(served, 'get', ['pretty']),
      put: operation(served, 'put', WRITE_PARAMS),
      patch: operation(served, 'patch', [...WRITE_PARAMS, 'force']),
      parameters: [nameParam, ...nsParam],
    };
  }
  if (served.scale) {
    const scaleGvk = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
    const scaleOp = (action: string, params: string[]): Json => ({
      ...operation(served, action, params),
      operationId: `${action}${def.kind}Scale`,
      'x-kubernetes-group-version-kind': scaleGvk,
      'x-orch-group-version-kind': scaleGvk,
    });
    paths[`${base}/{name}/scale`] = {
      get: scaleOp('get', ['pretty']),
      put: scaleOp('put', WRITE_PARAMS),
      patch: scaleOp('patch', [...WRITE_PARAMS, 'force']),
      parameters: [nameParam, ...nsParam],
    };
  }
  if (namespaced) paths[`/${gvPath(def.group, def.version)}/${def.resource}`] = { get: operation(served, 'list', LIST_PARAMS) };
  return paths;
}

export function groupVersionDocument(registry: ResourceRegistry, group: string, version: string): Json {
  const served = registry.resourcesOf(group, version);
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  for (const s of served) {
    Object.assign(paths, pathsOf(s));
    const ext = [gvk(s)];
    schemas[schemaName(s)] = {
      type: 'object',
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { type: 'object' }, status: { type: 'object' } },
      'x-kubernetes-group-version-kind': ext,
      'x-orch-group-version-kind': ext,
    };
  }
  return { openapi: '3.0.0', info: { title: 'orch-apiserver', version: 'v1.26.15' }, paths, components: { schemas } };
}

export function documentHash(doc: Json): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
}

export function openApiV3Root(registry: ResourceRegistry): Json {
  const paths: Record<string, Json> = {};
  for (const g of registry.groups()) {
    for (const version of g.versions) {
      const path = gvPath(g.group, version);
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${documentHash(groupVersionDocument(registry, g.group, version))}` };
    }
  }
  return { paths };
}
