// Structural checks of OpenAPI 3.0 and Swagger 2.0 documents for the tests: the parts of each specification
// clients rely on (document shape, operations, parameters, responses, schema keywords, resolvable $refs).
type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves a local JSON pointer (`#/components/schemas/x`) in a document. */
export function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur) || !(key in cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Every `$ref` string anywhere in a value. */
export function refsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.push(v);
      else refsIn(v, into);
    }
  }
  return into;
}

function checkSchema(schema: unknown, where: string, v3: boolean, problems: string[]): void {
  if (!isObject(schema)) {
    problems.push(`${where}: schema is not an object`);
    return;
  }
  if ('$ref' in schema && v3 && Object.keys(schema).length > 1)
    problems.push(`${where}: $ref with siblings (ignored by OpenAPI 3.0)`);
  if ('type' in schema && !TYPES.has(String(schema['type'])))
    problems.push(`${where}: unknown type ${String(schema['type'])}`);
  if (schema['type'] === 'array' && !('items' in schema)) problems.push(`${where}: array without items`);
  if (!v3 && ('oneOf' in schema || 'anyOf' in schema)) problems.push(`${where}: oneOf/anyOf is not Swagger 2.0`);
  if (
    'required' in schema &&
    !(Array.isArray(schema['required']) && schema['required'].every((r) => typeof r === 'string'))
  )
    problems.push(`${where}: required is not a list of names`);
  if (isObject(schema['properties']))
    for (const [k, v] of Object.entries(schema['properties'])) checkSchema(v, `${where}.properties.${k}`, v3, problems);
  if ('items' in schema) checkSchema(schema['items'], `${where}.items`, v3, problems);
  if (isObject(schema['additionalProperties']))
    checkSchema(schema['additionalProperties'], `${where}.additionalProperties`, v3, problems);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const list = schema[key];
    if (list !== undefined && !(Array.isArray(list) && list.length > 0))
      problems.push(`${where}.${key}: not a non-empty list`);
    if (Array.isArray(list)) list.forEach((s, i) => checkSchema(s, `${where}.${key}[${i}]`, v3, problems));
  }
}

function checkParameter(p: unknown, where: string, v3: boolean, problems: string[]): string | undefined {
  if (!isObject(p) || typeof p['name'] !== 'string') {
    problems.push(`${where}: parameter without a name`);
    return undefined;
  }
  const places = v3 ? ['query', 'path', 'header', 'cookie'] : ['query', 'path', 'header', 'formData', 'body'];
  if (!places.includes(String(p['in']))) problems.push(`${where} ${p['name']}: bad "in" ${String(p['in'])}`);
  if (p['in'] === 'path' && p['required'] !== true) problems.push(`${where} ${p['name']}: path parameter not required`);
  if (v3 && !('schema' in p)) problems.push(`${where} ${p['name']}: no schema`);
  if (!v3 && p['in'] === 'body' && !('schema' in p)) problems.push(`${where} ${p['name']}: body without schema`);
  if (!v3 && p['in'] !== 'body' && !TYPES.has(String(p['type'])))
    problems.push(`${where} ${p['name']}: no primitive type`);
  if ('schema' in p) checkSchema(p['schema'], `${where} ${p['name']}`, v3, problems);
  return p['in'] === 'path' ? p['name'] : undefined;
}

function checkContent(content: unknown, where: string, problems: string[]): void {
  if (!isObject(content) || Object.keys(content).length === 0) problems.push(`${where}: no content`);
  else
    for (const [type, media] of Object.entries(content))
      checkSchema(isObject(media) ? media['schema'] : undefined, `${where} ${type}`, true, problems);
}

function checkOperation(
  op: unknown,
  where: string,
  v3: boolean,
  pathParams: string[],
  ids: Set<string>,
  problems: string[],
): void {
  if (!isObject(op)) {
    problems.push(`${where}: not an object`);
    return;
  }
  const id = op['operationId'];
  if (typeof id === 'string') {
    if (ids.has(id)) problems.push(`${where}: duplicate operationId ${id}`);
    ids.add(id);
  }
  const own = Array.isArray(op['parameters']) ? op['parameters'] : [];
  const declared = [
    ...pathParams,
    ...own
      .map((p, i) => checkParameter(p, `${where} parameters[${i}]`, v3, problems))
      .filter((n): n is string => n !== undefined),
  ];
  for (const [, name] of where.matchAll(/\{([^}]+)\}/g))
    if (!declared.includes(name ?? '')) problems.push(`${where}: path parameter {${name}} not declared`);
  if (v3 && 'requestBody' in op)
    checkContent(
      isObject(op['requestBody']) ? op['requestBody']['content'] : undefined,
      `${where} requestBody`,
      problems,
    );
  const responses = op['responses'];
  if (!isObject(responses) || Object.keys(responses).length === 0) {
    problems.push(`${where}: no responses`);
    return;
  }
  for (const [code, r] of Object.entries(responses)) {
    if (!isObject(r) || typeof r['description'] !== 'string')
      problems.push(`${where} ${code}: response without description`);
    else if (v3 && 'content' in r) checkContent(r['content'], `${where} ${code}`, problems);
    else if (!v3 && 'schema' in r) checkSchema(r['schema'], `${where} ${code}`, false, problems);
  }
}

/** Problems found in an OpenAPI 3.0 (`v3`) or Swagger 2.0 document; empty when it is structurally sound. */
export function structuralProblems(doc: Json, v3: boolean): string[] {
  const problems: string[] = [];
  if (v3 ? !String(doc['openapi']).startsWith('3.0.') : doc['swagger'] !== '2.0')
    problems.push('missing or wrong version field');
  const info = doc['info'];
  if (!isObject(info) || typeof info['title'] !== 'string' || typeof info['version'] !== 'string')
    problems.push('info needs title and version');
  const paths = doc['paths'];
  if (!isObject(paths)) problems.push('paths is not an object');
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(isObject(paths) ? paths : {})) {
    if (!path.startsWith('/')) problems.push(`${path}: does not start with /`);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
    const pathParams = shared
      .map((p, i) => checkParameter(p, `${path} parameters[${i}]`, v3, problems))
      .filter((n): n is string => n !== undefined);
    for (const [key, op] of Object.entries(item)) {
      if (key === 'parameters' || key.startsWith('x-')) continue;
      if (!METHODS.has(key)) problems.push(`${path}: unknown key ${key}`);
      else checkOperation(op, `${key.toUpperCase()} ${path}`, v3, pathParams, ids, problems);
    }
  }
  const schemas = v3 ? (isObject(doc['components']) ? doc['components']['schemas'] : undefined) : doc['definitions'];
  if (!isObject(schemas)) problems.push('no schemas');
  else for (const [name, s] of Object.entries(schemas)) checkSchema(s, name, v3, problems);
  for (const ref of new Set(refsIn(doc)))
    if (resolvePointer(doc, ref) === undefined) problems.push(`unresolved $ref ${ref}`);
  return problems;
}
