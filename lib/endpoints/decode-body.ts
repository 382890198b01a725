// Decodes a create/update body (JSON, YAML or protobuf) into an object of the addressed kind, with Kubernetes' 400 texts.
import { parse as parseYaml } from 'yaml';
import { badRequest, isStatusError } from '../apimachinery/errors';
import { decodeEnvelope, decodeProtobufObject, messageNameOf, orchApiVersion, type Envelope } from '../apimachinery/serializers/protobuf';
import type { ApiObject } from '../apimachinery/meta/types';
import { isPlainObject } from '../apimachinery/meta/types';
import type { ResourceDefinition } from '../registry/rest/resource';
import { apiVersionOfDefinition } from '../registry/rest/resource';
import type { BodyFormat } from './negotiation';

/** The scheme name Kubernetes prints in "no kind is registered" errors. */
const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';
const SUMMARY_BYTES = 30;
const TYPE_META_GO = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** How Kubernetes summarises an undecodable body in its error: short JSON verbatim, else truncated/hex. */
function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const text = body.toString('utf8');
  if (text.startsWith('{')) return body.length <= SUMMARY_BYTES ? text : `${body.subarray(0, SUMMARY_BYTES).toString('utf8')} ...`;
  return `${body.subarray(0, SUMMARY_BYTES).toString('hex')}${body.length > SUMMARY_BYTES ? ' ...' : ''}`;
}

/** Go's encoding/json wording for a syntax error, from V8's message and the body. */
function goJsonError(err: unknown, text: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const position = /position (\d+)/.exec(message);
  const at = position ? Number(position[1]) : text.length;
  if (/end of (JSON )?input|Unterminated/i.test(message) || at >= text.trimEnd().length) return 'unexpected end of JSON input';
  return `invalid character '${text[at] ?? ''}' looking for beginning of value`;
}

function unrecognized(def: ResourceDefinition, detail: string, body: Buffer): Error {
  return badRequest(`the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: ${detail} (${summarize(body)})`);
}

function goTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Rewords a protobuf decoding StatusError with `prefix`; other errors pass unchanged. */
function reworded(err: unknown, prefix: string, suffix = ''): unknown {
  return isStatusError(err) ? badRequest(`${prefix}${err.message}${suffix}`) : err;
}

/**
 * A protobuf body as the JSON object shape, with apiVersion/kind from the envelope (the `k8s.io`
 * alias of a group mapped to its orch name; empty ones default to the URL's kind). A kind without
 * a protobuf message is returned bare so decodeObject's apiVersion/kind checks reject it.
 */
function parseProtobuf(body: Buffer, def: ResourceDefinition): Record<string, unknown> {
  let envelope: Envelope;
  try {
    envelope = decodeEnvelope(body);
  } catch (err) {
    throw reworded(err, `the object provided is unrecognized (must be of type ${def.kind}): `, ` (${summarize(body)})`);
  }
  const apiVersion = envelope.apiVersion === '' ? apiVersionOfDefinition(def) : orchApiVersion(envelope.apiVersion);
  const kind = envelope.kind === '' ? def.kind : envelope.kind;
  if (messageNameOf(apiVersion, kind) === undefined) {
    if (apiVersion === apiVersionOfDefinition(def) && kind === def.kind) throw badRequest(`the body of the request for ${def.kind} cannot be decoded from protobuf`);
    return { apiVersion, kind };
  }
  const bodyVersion = apiVersion.slice(apiVersion.indexOf('/') + 1);
  try {
    return { kind, apiVersion, ...decodeProtobufObject(apiVersion, kind, envelope.raw) };
  } catch (err) {
    throw reworded(err, `${kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: `);
  }
}

export function parseBody(body: Buffer, format: BodyFormat, def: ResourceDefinition): unknown {
  if (format === 'protobuf') return parseProtobuf(body, def);
  if (format === 'yaml') {
    try {
      return parseYaml(body.toString('utf8'));
    } catch (err) {
      throw badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw unrecognized(def, goJsonError(err, body.toString('utf8')), body);
  }
}

/** A type error on a metadata field, worded as Go's decoder does. */
function metadataTypeError(def: ResourceDefinition, bodyVersion: string, field: string, value: unknown, goType: string): Error {
  return badRequest(`${def.kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: json: cannot unmarshal ${goTypeName(value)} into Go struct field ObjectMeta.metadata.${field} of type ${goType}`);
}

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'] as const;

function checkMetadataTypes(def: ResourceDefinition, bodyVersion: string, metadata: Record<string, unknown>): void {
  for (const field of STRING_FIELDS) {
    const v = metadata[field];
    if (v !== undefined && v !== null && typeof v !== 'string') throw metadataTypeError(def, bodyVersion, field, v, 'string');
  }
  for (const field of ['labels', 'annotations'] as const) {
    const v = metadata[field];
    if (v === undefined || v === null) continue;
    if (!isPlainObject(v)) throw metadataTypeError(def, bodyVersion, field, v, 'map[string]string');
    for (const entry of Object.values(v)) if (typeof entry !== 'string') throw metadataTypeError(def, bodyVersion, field, entry, 'string');
  }
  const finalizers = metadata['finalizers'];
  if (finalizers !== undefined && finalizers !== null) {
    if (!Array.isArray(finalizers)) throw metadataTypeError(def, bodyVersion, 'finalizers', finalizers, '[]string');
    for (const f of finalizers as unknown[]) if (typeof f !== 'string') throw metadataTypeError(def, bodyVersion, 'finalizers', f, 'string');
  }
  const generation = metadata['generation'];
  if (generation !== undefined && generation !== null && !Number.isInteger(generation)) throw metadataTypeError(def, bodyVersion, 'generation', generation, 'int64');
}

/**
 * Checks apiVersion/kind against the URL's resource (defaulting them when absent) and the
 * metadata field types; the kind's own fields are left to its validation.
 */
export function decodeObject(body: Buffer, format: BodyFormat, def: ResourceDefinition, isKnownKind: (apiVersion: string, kind: string) => boolean): ApiObject {
  const value = parseBody(body, format, def);
  if (!isPlainObject(value)) throw unrecognized(def, `json: cannot unmarshal ${goTypeName(value)} into Go value of type ${TYPE_META_GO}`, body);
  const expectedApiVersion = apiVersionOfDefinition(def);
  const apiVersion = typeof value['apiVersion'] === 'string' && value['apiVersion'] !== '' ? value['apiVersion'] : expectedApiVersion;
  const kind = typeof value['kind'] === 'string' && value['kind'] !== '' ? value['kind'] : def.kind;
  const bodyVersion = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  if (apiVersion !== expectedApiVersion || kind !== def.kind) {
    if (!isKnownKind(apiVersion, kind)) {
      throw badRequest(`${kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCHEME_NAME}"`);
    }
    if (apiVersion !== expectedApiVersion) throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expectedApiVersion})`);
    throw badRequest(`${kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: converting (${kind}) to (${def.kind}): unknown conversion`);
  }
  const metadata = value['metadata'] ?? {};
  if (!isPlainObject(metadata)) {
    throw badRequest(`${def.kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: json: cannot unmarshal ${goTypeName(metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  }
  checkMetadataTypes(def, bodyVersion, metadata);
  for (const field of STRING_FIELDS) if (metadata[field] === null) delete metadata[field];
  return { ...value, apiVersion, kind, metadata } as ApiObject; // metadata field types checked above
}
