// The Swagger 2.0 document (/openapi/v2): every served group-version's paths and every definition they reach.
// kubectl 1.27 and 1.28 read it (as protobuf, v2-protobuf.ts) for create/apply validation and client-side apply; newer kubectl reads v3.
import type { ResourceRegistry } from '../../registry/resource-registry';
import { buildDefinitions } from './definitions';
import { canonicalGroup } from '../../apimachinery/schema/group-aliases';
import { definitionName, servedKinds } from './definition-names';
import { OPENAPI_INFO } from './info';
import { requestTypes, responseTypes } from './media-types';
import { QUERY_PARAM_TYPES, type QueryParam } from './parameters';
import { groupVersionPathItems, type Operation, type PathItem } from './routes';
import { SWAGGER_V2, setExtension, type Json } from './schema-style';

const ref = (message: string): Json => ({ $ref: `${SWAGGER_V2.refPrefix}${definitionName(message)}` });

function queryParam(name: QueryParam): Json {
  return { uniqueItems: true, type: QUERY_PARAM_TYPES[name], name, in: 'query' };
}

function pathParams(item: PathItem): Json[] {
  const params: Json[] = item.pathParams.map((name) => ({
    uniqueItems: true,
    type: 'string',
    name,
    in: 'path',
    required: true,
    description: name === 'name' ? item.nameOf : 'object name and auth scope, such as for teams and projects',
  }));
  return [...params, { ...queryParam('pretty'), description: "If 'true', then the output is pretty printed." }];
}

function operation(op: Operation, tag: string, messages: Set<string>): Json {
  const parameters: Json[] = [];
  if (op.body) {
    messages.add(op.body.message);
    parameters.push({
      name: 'body',
      in: 'body',
      ...(op.body.required ? { required: true } : {}),
      schema: ref(op.body.message),
    });
  }
  parameters.push(...op.params.map(queryParam));
  const responses: Json = {};
  for (const r of op.responses) {
    messages.add(r.message);
    responses[r.code] = { description: r.description, schema: ref(r.message) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const out: Json = {
    description: op.description,
    consumes: requestTypes(op),
    produces: responseTypes(op),
    schemes: ['https'],
    tags: [tag],
    operationId: op.operationId,
    parameters,
    responses,
  };
  setExtension(out, 'action', op.action);
  setExtension(out, 'group-version-kind', { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version });
  return out;
}

/** One Swagger 2.0 document for every served resource. */
export function swaggerDocument(registry: ResourceRegistry): Json {
  const paths: Record<string, Json> = {};
  const messages = new Set<string>();
  // Every served group-version. The Kubernetes names of aliased groups (listed in discovery and in /openapi/v3) are
  // left out: one document would repeat every operationId; their kinds are in each definition's group-version-kinds.
  const items = registry
    .groups()
    .filter(({ group }) => canonicalGroup(group) === group)
    .flatMap(({ group, versions }) => versions.flatMap((version) => groupVersionPathItems(registry, group, version)));
  for (const item of items) {
    const pathItem: Json = { parameters: pathParams(item) };
    for (const op of item.operations) pathItem[op.method] = operation(op, item.tag, messages);
    paths[item.path] = pathItem;
  }
  const definitions = buildDefinitions(messages, SWAGGER_V2, servedKinds(registry));
  return {
    swagger: '2.0',
    info: OPENAPI_INFO,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1))),
    definitions,
  };
}
