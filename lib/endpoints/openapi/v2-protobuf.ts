// The Swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf, what kube-openapi serves for
// `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, which kubectl 1.27 and 1.28 need for create/apply (validation, client-side apply).
import { Writer } from 'protobufjs';
import { stringify } from 'yaml';
import type { Json } from './schema-style';

type Scalar = 'string' | 'bool' | 'double' | 'int64' | 'strings' | 'any' | 'anys';
/** Writes one JSON value as field `number` of the enclosing message. */
type FieldWriter = (w: Writer, number: number, value: unknown) => void;
type Kind = Scalar | FieldWriter;

interface MessageSpec {
  /** JSON keys in field-number order (field n is `keys[n - 1]`), as in gnostic's OpenAPIv2.proto. */
  keys: readonly string[];
  /** Kind of each key; a key missing here has the kind `KINDS` gives it. */
  kinds?: Readonly<Record<string, Kind>>;
  /** Field number of `repeated NamedAny vendor_extension` (the `x-*` keys). */
  extensions?: number;
}

const LENGTH_DELIMITED = 2;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function delimited(w: Writer, number: number, body: () => void): void {
  w.uint32((number << 3) | LENGTH_DELIMITED).fork();
  body();
  w.ldelim();
}

/** gnostic keeps free-form values (defaults, enums, extensions) as `Any { yaml = 2 }`. */
function writeAny(w: Writer, number: number, value: unknown): void {
  delimited(w, number, () => w.uint32((2 << 3) | LENGTH_DELIMITED).string(stringify(value)));
}

function writeScalar(w: Writer, kind: Scalar, number: number, value: unknown): void {
  switch (kind) {
    case 'string':
      w.uint32((number << 3) | LENGTH_DELIMITED).string(String(value));
      return;
    case 'bool':
      w.uint32(number << 3).bool(value === true);
      return;
    case 'double':
      w.uint32((number << 3) | 1).double(Number(value));
      return;
    case 'int64':
      w.uint32(number << 3).int64(Number(value));
      return;
    case 'strings':
      for (const s of Array.isArray(value) ? value : [value])
        w.uint32((number << 3) | LENGTH_DELIMITED).string(String(s));
      return;
    case 'any':
      writeAny(w, number, value);
      return;
    case 'anys':
      for (const v of Array.isArray(value) ? value : [value]) writeAny(w, number, v);
      return;
  }
}

/** A message field (`repeated` when the JSON value is an array). */
const messageField =
  (spec: () => MessageSpec): FieldWriter =>
  (w, number, value) => {
    for (const item of Array.isArray(value) ? value : [value])
      delimited(w, number, () => writeMessage(w, spec(), item));
  };

/** A JSON object as `repeated Named<X> { name = 1; value = 2 }` (gnostic's ordered maps). */
const namedMap =
  (value: FieldWriter): FieldWriter =>
  (w, number, map) => {
    if (!isObject(map)) return;
    for (const [name, v] of Object.entries(map)) {
      delimited(w, number, () => {
        w.uint32((1 << 3) | LENGTH_DELIMITED).string(name);
        value(w, 2, v);
      });
    }
  };

/** A message holding one map field (`Definitions`, `Properties`): `additional_properties = 1`. */
const mapMessage =
  (value: FieldWriter): FieldWriter =>
  (w, number, map) =>
    delimited(w, number, () => namedMap(value)(w, 1, map));

const isExtension = (key: string): boolean => key.startsWith('x-');
const entriesWhere = (map: unknown, keep: (key: string) => boolean): Json =>
  isObject(map) ? Object.fromEntries(Object.entries(map).filter(([k]) => keep(k))) : {};

/** A message holding a map (field `mapNumber`) beside its `x-*` extensions (field `extensionsNumber`): Paths, Responses. */
const mapWithExtensions =
  (value: FieldWriter, mapNumber: number, extensionsNumber: number): FieldWriter =>
  (w, number, map) =>
    delimited(w, number, () => {
      namedMap(value)(
        w,
        mapNumber,
        entriesWhere(map, (k) => !isExtension(k)),
      );
      namedMap(writeAny)(w, extensionsNumber, entriesWhere(map, isExtension));
    });

/** A `oneof` wrapper message: writes `value` as the alternative `choose` picks. */
const oneOf =
  (choose: (value: unknown) => readonly [number, FieldWriter]): FieldWriter =>
  (w, number, value) => {
    const [alternative, write] = choose(value);
    delimited(w, number, () => write(w, alternative, value));
  };

const scalar =
  (kind: Scalar): FieldWriter =>
  (w, number, value) =>
    writeScalar(w, kind, number, value);

/** Parameter and items validations, in the order PrimitivesItems and the parameter sub-schemas number them. */
const VALIDATIONS = [
  'type',
  'format',
  'items',
  'collectionFormat',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
];

const KINDS: Readonly<Record<string, Kind>> = {
  required: 'bool',
  allowEmptyValue: 'bool',
  exclusiveMaximum: 'bool',
  exclusiveMinimum: 'bool',
  uniqueItems: 'bool',
  readOnly: 'bool',
  deprecated: 'bool',
  maximum: 'double',
  minimum: 'double',
  multipleOf: 'double',
  maxLength: 'int64',
  minLength: 'int64',
  maxItems: 'int64',
  minItems: 'int64',
  maxProperties: 'int64',
  minProperties: 'int64',
  default: 'any',
  example: 'any',
  enum: 'anys',
  tags: 'strings',
  produces: 'strings',
  consumes: 'strings',
  schemes: 'strings',
  items: messageField(() => PRIMITIVES_ITEMS),
  externalDocs: messageField(() => ({ keys: ['description', 'url'], extensions: 3 })),
};

const PRIMITIVES_ITEMS: MessageSpec = { keys: VALIDATIONS, extensions: 18 };

const SCHEMA: MessageSpec = {
  keys: [
    '$ref',
    'format',
    'title',
    'description',
    'default',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'maxItems',
    'minItems',
    'uniqueItems',
    'maxProperties',
    'minProperties',
    'required',
    'enum',
    'additionalProperties',
    'type',
    'items',
    'allOf',
    'properties',
    'discriminator',
    'readOnly',
    'xml',
    'externalDocs',
    'example',
  ],
  kinds: {
    required: 'strings',
    additionalProperties: oneOf((v) =>
      typeof v === 'boolean' ? [2, scalar('bool')] : [1, messageField(() => SCHEMA)],
    ),
    type: (w, n, v) => delimited(w, n, () => writeScalar(w, 'strings', 1, v)),
    items: (w, n, v) => delimited(w, n, () => messageField(() => SCHEMA)(w, 1, v)),
    allOf: messageField(() => SCHEMA),
    properties: mapMessage(messageField(() => SCHEMA)),
    xml: messageField(() => ({
      keys: ['name', 'namespace', 'prefix', 'attribute', 'wrapped'],
      kinds: { attribute: 'bool', wrapped: 'bool' },
      extensions: 6,
    })),
  },
  extensions: 31,
};

const NAMED_PARAMETER_KEYS = ['required', 'in', 'description', 'name'];
const PATH_OR_HEADER_PARAMETER: MessageSpec = { keys: [...NAMED_PARAMETER_KEYS, ...VALIDATIONS], extensions: 22 };
const QUERY_OR_FORM_PARAMETER: MessageSpec = {
  keys: [...NAMED_PARAMETER_KEYS, 'allowEmptyValue', ...VALIDATIONS],
  extensions: 23,
};
const BODY_PARAMETER: MessageSpec = {
  keys: ['description', 'name', 'in', 'required', 'schema'],
  kinds: { schema: messageField(() => SCHEMA) },
  extensions: 6,
};
const NON_BODY_PARAMETER: Readonly<Record<string, readonly [number, MessageSpec]>> = {
  header: [1, PATH_OR_HEADER_PARAMETER],
  formData: [2, QUERY_OR_FORM_PARAMETER],
  query: [3, QUERY_OR_FORM_PARAMETER],
  path: [4, PATH_OR_HEADER_PARAMETER],
};
const JSON_REFERENCE = messageField(() => ({ keys: ['$ref', 'description'] }));

/** ParametersItem { parameter = 1 | json_reference = 2 }, Parameter { body_parameter = 1 | non_body_parameter = 2 }. */
const parametersItem: FieldWriter = (w, number, value) => {
  for (const param of Array.isArray(value) ? value : [value]) {
    if (!isObject(param)) continue;
    if ('$ref' in param) {
      delimited(w, number, () => JSON_REFERENCE(w, 2, param));
      continue;
    }
    const location = String(param['in']);
    const parameter: FieldWriter =
      location === 'body'
        ? (pw, n, p) => delimited(pw, n, () => messageField(() => BODY_PARAMETER)(pw, 1, p))
        : (pw, n, p) =>
            delimited(pw, n, () => {
              const [alternative, spec] =
                NON_BODY_PARAMETER[location] ?? (NON_BODY_PARAMETER['query'] as readonly [number, MessageSpec]);
              delimited(pw, 2, () => messageField(() => spec)(pw, alternative, p));
            });
    delimited(w, number, () => parameter(w, 1, param));
  }
};

const RESPONSE: MessageSpec = {
  keys: ['description', 'schema'],
  kinds: { schema: (w, n, v) => delimited(w, n, () => messageField(() => SCHEMA)(w, 1, v)) },
  extensions: 5,
};
/** ResponseValue { response = 1 | json_reference = 2 }. */
const responseValue = oneOf((v) =>
  isObject(v) && '$ref' in v ? [2, JSON_REFERENCE] : [1, messageField(() => RESPONSE)],
);

const OPERATION: MessageSpec = {
  keys: [
    'tags',
    'summary',
    'description',
    'externalDocs',
    'operationId',
    'produces',
    'consumes',
    'parameters',
    'responses',
    'schemes',
    'deprecated',
  ],
  kinds: {
    parameters: parametersItem,
    responses: mapWithExtensions(responseValue, 1, 2), // Responses { response_code = 1; vendor_extension = 2 }
  },
  extensions: 13,
};

const PATH_ITEM: MessageSpec = {
  keys: ['$ref', 'get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'parameters'],
  kinds: {
    get: messageField(() => OPERATION),
    put: messageField(() => OPERATION),
    post: messageField(() => OPERATION),
    delete: messageField(() => OPERATION),
    options: messageField(() => OPERATION),
    head: messageField(() => OPERATION),
    patch: messageField(() => OPERATION),
    parameters: parametersItem,
  },
  extensions: 10,
};

const DOCUMENT: MessageSpec = {
  keys: ['swagger', 'info', 'host', 'basePath', 'schemes', 'consumes', 'produces', 'paths', 'definitions'],
  kinds: {
    info: messageField(() => ({
      keys: ['title', 'version', 'description', 'termsOfService', 'contact', 'license'],
      kinds: {
        contact: messageField(() => ({ keys: ['name', 'url', 'email'], extensions: 4 })),
        license: messageField(() => ({ keys: ['name', 'url'], extensions: 3 })),
      },
      extensions: 7,
    })),
    paths: mapWithExtensions(
      messageField(() => PATH_ITEM),
      2,
      1,
    ), // Paths { vendor_extension = 1; path = 2 }
    definitions: mapMessage(messageField(() => SCHEMA)),
  },
  extensions: 16,
};

function writeMessage(w: Writer, spec: MessageSpec, value: unknown): void {
  if (!isObject(value)) return;
  spec.keys.forEach((key, index) => {
    const v = value[key];
    if (v === undefined || v === null) return;
    const kind = spec.kinds?.[key] ?? KINDS[key] ?? 'string';
    if (typeof kind === 'function') kind(w, index + 1, v);
    else writeScalar(w, kind, index + 1, v);
  });
  if (spec.extensions !== undefined) namedMap(writeAny)(w, spec.extensions, entriesWhere(value, isExtension));
}

/** Encodes a Swagger 2.0 document (as `swaggerDocument` builds it) to gnostic's `openapi.v2.Document` bytes. */
export function encodeSwaggerProtobuf(doc: Json): Buffer {
  const w = Writer.create();
  writeMessage(w, DOCUMENT, doc);
  return Buffer.from(w.finish());
}
