// OpenAPI v3 documents: one per served group-version (paths + the component schemas they reach) and the root
// listing them. kubectl explain finds a resource's kind through its operations' `x-kubernetes-group-version-kind`
// and the schema carrying the same GVK; `--validate` looks for `fieldValidation` on the kind's PATCH operation.
import type { ResourceRegistry } from '../../registry/resource-registry';
import { buildDefinitions } from './definitions';
import { definitionName, servedKinds } from './definition-names';
import { requestTypes, responseTypes } from './media-types';
import { QUERY_PARAM_TYPES, type QueryParam } from './parameters';
import { groupVersionPath, groupVersionPathItems, type Operation, type PathItem } from './routes';
import { OPENAPI_V3, setExtension, type Json } from './schema-style';
import { OPENAPI_INFO } from './info';

const ref = (message: string): Json => ({ $ref: `${OPENAPI_V3.refPrefix}${definitionName(message)}` });

function queryParam(name: QueryParam): Json {
  return { name, in: 'query', schema: { type: QUERY_PARAM_TYPES[name], uniqueItems: true } };
}

function pathParams(item: PathItem): Json[] {
  const params: Json[] = item.pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'name' ? item.nameOf : 'object name and auth scope, such as for teams and projects',
    schema: { type: 'string', uniqueItems: true },
  }));
  return [...params, { ...queryParam('pretty'), description: "If 'true', then the output is pretty printed." }];
}

function operation(op: Operation, tag: string, messages: Set<string>): Json {
  const content = (message: string, types: string[]): Json =>
    Object.fromEntries(types.map((t) => [t, { schema: ref(message) }]));
  const responses: Json = {};
  for (const r of op.responses) {
    messages.add(r.message);
    responses[r.code] = { description: r.description, content: content(r.message, responseTypes(op)) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const out: Json = { description: op.description, operationId: op.operationId, parameters: op.params.map(queryParam) };
  if (op.body) {
    messages.add(op.body.message);
    out['requestBody'] = {
      content: content(op.body.message, requestTypes(op)),
      ...(op.body.required ? { required: true } : {}),
    };
  }
  Object.assign(out, { responses, tags: [tag] });
  setExtension(out, 'action', op.action);
  setExtension(out, 'group-version-kind', { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version });
  return out;
}

/** The document of one served group-version; every `$ref` in it resolves inside it. */
export function groupVersionDocument(registry: ResourceRegistry, group: string, version: string): Json {
  const paths: Record<string, Json> = {};
  const messages = new Set<string>();
  for (const item of groupVersionPathItems(registry, group, version)) {
    const pathItem: Json = { parameters: pathParams(item) };
    for (const op of item.operations) pathItem[op.method] = operation(op, item.tag, messages);
    paths[item.path] = pathItem;
  }
  const schemas = buildDefinitions(messages, OPENAPI_V3, servedKinds(registry));
  return { openapi: '3.0.0', info: OPENAPI_INFO, paths, components: { schemas } };
}

/** `api/v1`, `apis/apps/v1`: a group-version's key in the v3 root and its URL below `/openapi/v3/`. */
export function groupVersionKey(group: string, version: string): string {
  return groupVersionPath(group, version).slice(1);
}
