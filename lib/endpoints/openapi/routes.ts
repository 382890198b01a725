// The operations kube-apiserver's installer documents for a served resource: paths, actions, parameters, bodies,
// responses and operation ids, independent of the OpenAPI version that renders them.
import { apiVersionOf, messageNameFor } from '../../apimachinery/schema';
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';
import type { ResourceDefinition } from '../../registry/rest/resource';
import { META, type Gvk } from './definition-names';
import { routesOf, serves } from '../routes/route-table';
import {
  DELETE_COLLECTION_PARAMS,
  DELETE_PARAMS,
  LIST_PARAMS,
  PATCH_PARAMS,
  WRITE_PARAMS,
  type QueryParam,
} from './parameters';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type Action = 'list' | 'post' | 'deletecollection' | 'get' | 'put' | 'patch' | 'delete' | 'watch' | 'watchlist';
/** `object` request bodies are any served format (`*\/*`); `patch` bodies are one of the four patch types. */
export type BodyKind = 'object' | 'patch';

export interface Operation {
  method: Method;
  action: Action;
  operationId: string;
  description: string;
  gvk: Gvk;
  params: readonly QueryParam[];
  body?: { message: string; kind: BodyKind; required: boolean };
  /** Status code → description and the catalog message answered. */
  responses: ReadonlyArray<{ code: string; description: string; message: string }>;
  /** Responses may also stream (`;stream=watch`): list and watch. */
  streams: boolean;
}

export interface PathItem {
  path: string;
  /** Path parameters in URL order; `pretty` is always a path-level query parameter. */
  pathParams: ReadonlyArray<'namespace' | 'name'>;
  /** Description of the `name` path parameter (`name of the Deployment`). */
  nameOf: string;
  tag: string;
  operations: Operation[];
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `apps` → `Apps`, `flowcontrol.apiserver.orch.io` → `FlowcontrolApiserver`, core → `Core`, as operation ids spell groups. */
function groupWord(group: string): string {
  if (group === '') return 'Core';
  const trimmed = group.replace(/\.(orch|k8s)\.io$/, '');
  return trimmed.split('.').map(capitalize).join('');
}

/** The operation tag: `apps_v1`, `core_v1`, `flowcontrolApiserver_v1beta3`. */
export function tagOf(group: string, version: string): string {
  const word = groupWord(group);
  return `${word.charAt(0).toLowerCase()}${word.slice(1)}_${version}`;
}

export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The documented methods of a subresource's verbs, in the order its path lists them. */
const SUBRESOURCE_METHODS: ReadonlyArray<['get' | 'put' | 'patch', 'get' | 'update' | 'patch']> = [
  ['get', 'get'],
  ['put', 'update'],
  ['patch', 'patch'],
];

const ok = (message: string) => ({ code: '200', description: 'OK', message });
const created = (message: string) => ({ code: '201', description: 'Created', message });
const accepted = (message: string) => ({ code: '202', description: 'Accepted', message });

/** Every documented path of one served resource (collection, item, subresources, all-namespaces and watch forms). */
export function pathItemsOf(served: ServedResource): PathItem[] {
  const def = served.definition;
  const apiVersion = apiVersionOf(def);
  const kindMessage = messageNameFor(apiVersion, def.kind);
  const listMessage = messageNameFor(apiVersion, def.listKind);
  if (kindMessage === undefined || listMessage === undefined) return []; // a kind the catalog lacks has no schema to document
  const gvk: Gvk = { group: def.group, version: def.version, kind: def.kind };
  const routes = routesOf(served);
  const namespaced = routes.namespaced;
  const gv = groupVersionPath(def.group, def.version);
  const ns = namespaced ? '/namespaces/{namespace}' : '';
  const scope = namespaced ? 'Namespaced' : '';
  const gvWord = `${groupWord(def.group)}${capitalize(def.version)}`;
  const id = (verb: string, suffix = '', infix = ''): string => `${verb}${gvWord}${infix}${scope}${def.kind}${suffix}`;
  const tag = tagOf(def.group, def.version);
  const nameOf = `name of the ${def.kind}`;
  const nsParams: Array<'namespace'> = namespaced ? ['namespace'] : [];
  const kindOp = (
    method: Method,
    action: Action,
    verb: string,
    description: string,
    params: readonly QueryParam[],
    extra: Partial<Operation> = {},
  ): Operation => ({
    method,
    action,
    operationId: id(verb),
    description,
    gvk,
    params,
    responses: [ok(kindMessage)],
    streams: false,
    ...extra,
  });

  const items: PathItem[] = [
    {
      path: `${gv}${ns}/${def.resource}`,
      pathParams: nsParams,
      nameOf,
      tag,
      operations: [
        kindOp('get', 'list', 'list', `list or watch objects of kind ${def.kind}`, LIST_PARAMS, {
          responses: [ok(listMessage)],
          streams: true,
        }),
        kindOp('post', 'post', 'create', `create a ${def.kind}`, WRITE_PARAMS, {
          body: { message: kindMessage, kind: 'object', required: true },
          responses: [ok(kindMessage), created(kindMessage), accepted(kindMessage)],
        }),
        ...(serves(routes, 'deletecollection')
          ? [
              kindOp(
                'delete',
                'deletecollection',
                'delete',
                `delete collection of ${def.kind}`,
                DELETE_COLLECTION_PARAMS,
                {
                  operationId: id('delete', '', 'Collection'),
                  body: { message: META.deleteOptions, kind: 'object', required: false },
                  responses: [ok(META.status)],
                },
              ),
            ]
          : []),
      ],
    },
    {
      path: `${gv}${ns}/${def.resource}/{name}`,
      pathParams: [...nsParams, 'name'],
      nameOf,
      tag,
      operations: [
        kindOp('get', 'get', 'read', `read the specified ${def.kind}`, []),
        kindOp('put', 'put', 'replace', `replace the specified ${def.kind}`, WRITE_PARAMS, {
          body: { message: kindMessage, kind: 'object', required: true },
          responses: [ok(kindMessage), created(kindMessage)],
        }),
        kindOp('patch', 'patch', 'patch', `partially update the specified ${def.kind}`, PATCH_PARAMS, {
          body: { message: META.patch, kind: 'patch', required: true },
          responses: [ok(kindMessage), created(kindMessage)],
        }),
        kindOp('delete', 'delete', 'delete', `delete a ${def.kind}`, DELETE_PARAMS, {
          body: { message: META.deleteOptions, kind: 'object', required: false },
          responses: [ok(META.status), accepted(META.status)],
        }),
      ],
    },
  ];
  const subresource = (
    name: string,
    message: string,
    subGvk: Gvk,
    verbs: ReadonlyArray<'get' | 'put' | 'patch'>,
  ): PathItem => {
    const word = capitalize(name);
    const ops: Record<'get' | 'put' | 'patch', () => Operation> = {
      get: () =>
        kindOp('get', 'get', 'read', `read ${name} of the specified ${def.kind}`, [], {
          operationId: id('read', word),
          gvk: subGvk,
          responses: [ok(message)],
        }),
      put: () =>
        kindOp('put', 'put', 'replace', `replace ${name} of the specified ${def.kind}`, WRITE_PARAMS, {
          operationId: id('replace', word),
          gvk: subGvk,
          body: { message, kind: 'object', required: true },
          responses: [ok(message), created(message)],
        }),
      patch: () =>
        kindOp('patch', 'patch', 'patch', `partially update ${name} of the specified ${def.kind}`, PATCH_PARAMS, {
          operationId: id('patch', word),
          gvk: subGvk,
          body: { message: META.patch, kind: 'patch', required: true },
          responses: [ok(message), created(message)],
        }),
    };
    return {
      path: `${gv}${ns}/${def.resource}/{name}/${name}`,
      pathParams: [...nsParams, 'name'],
      nameOf,
      tag,
      operations: verbs.map((v) => ops[v]()),
    };
  };
  for (const sub of routes.subresources) {
    if (!sub.documented) continue;
    const methods = SUBRESOURCE_METHODS.filter(([, verb]) => sub.verbs.includes(verb)).map(([method]) => method);
    items.push(subresource(sub.name, sub.serves === 'scale' ? META.scale : kindMessage, sub.kind ?? gvk, methods));
  }

  const watchOp = (action: 'watch' | 'watchlist', operationId: string, description: string): Operation => ({
    method: 'get',
    action,
    operationId,
    description,
    gvk,
    params: LIST_PARAMS,
    responses: [ok(META.watchEvent)],
    streams: true,
  });
  const deprecated = "deprecated: use the 'watch' parameter with a list operation instead";
  items.push(
    {
      path: `${gv}/watch${ns}/${def.resource}`,
      pathParams: nsParams,
      nameOf,
      tag,
      operations: [
        watchOp('watchlist', id('watch', 'List'), `watch individual changes to a list of ${def.kind}. ${deprecated}.`),
      ],
    },
    {
      path: `${gv}/watch${ns}/${def.resource}/{name}`,
      pathParams: [...nsParams, 'name'],
      nameOf,
      tag,
      operations: [
        watchOp(
          'watch',
          id('watch'),
          `watch changes to an object of kind ${def.kind}. ${deprecated}, filtered to a single item with the 'fieldSelector' parameter.`,
        ),
      ],
    },
  );
  if (namespaced) {
    const allId = (verb: string, suffix: string): string => `${verb}${gvWord}${def.kind}${suffix}`;
    items.push(
      {
        path: `${gv}/${def.resource}`,
        pathParams: [],
        nameOf,
        tag,
        operations: [
          {
            ...kindOp('get', 'list', 'list', `list or watch objects of kind ${def.kind}`, LIST_PARAMS, {
              responses: [ok(listMessage)],
              streams: true,
            }),
            operationId: allId('list', 'ForAllNamespaces'),
          },
        ],
      },
      {
        path: `${gv}/watch/${def.resource}`,
        pathParams: [],
        nameOf,
        tag,
        operations: [
          watchOp(
            'watchlist',
            allId('watch', 'ListForAllNamespaces'),
            `watch individual changes to a list of ${def.kind}. ${deprecated}.`,
          ),
        ],
      },
    );
  }
  return items;
}

/** The one documented path of a create-only kind (an access or token review): POST to its collection. */
export function createOnlyPathItems(def: ResourceDefinition): PathItem[] {
  const kindMessage = messageNameFor(apiVersionOf(def), def.kind);
  if (kindMessage === undefined) return [];
  const namespaced = def.strategy.namespaced;
  const scope = namespaced ? 'Namespaced' : '';
  const operation: Operation = {
    method: 'post',
    action: 'post',
    operationId: `create${groupWord(def.group)}${capitalize(def.version)}${scope}${def.kind}`,
    description: `create a ${def.kind}`,
    gvk: { group: def.group, version: def.version, kind: def.kind },
    params: WRITE_PARAMS,
    body: { message: kindMessage, kind: 'object', required: true },
    responses: [ok(kindMessage), created(kindMessage), accepted(kindMessage)],
    streams: false,
  };
  return [
    {
      path: `${groupVersionPath(def.group, def.version)}${namespaced ? '/namespaces/{namespace}' : ''}/${def.resource}`,
      pathParams: namespaced ? ['namespace'] : [],
      nameOf: `name of the ${def.kind}`,
      tag: tagOf(def.group, def.version),
      operations: [operation],
    },
  ];
}

/** Every documented path of a group-version: its stored resources' and its create-only kinds'. */
export function groupVersionPathItems(registry: ResourceRegistry, group: string, version: string): PathItem[] {
  return [
    ...registry.resourcesOf(group, version).flatMap(pathItemsOf),
    ...registry.createOnlyOf(group, version).flatMap(createOnlyPathItems),
  ];
}
