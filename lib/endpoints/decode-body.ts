// Decodes a create/update body (JSON, YAML or protobuf) into an object of the addressed kind, with Kubernetes' 400 texts and field validation.
import { badRequest, isStatusError } from '../apimachinery/errors';
import { goJsonKind, JsonSyntaxError, TYPE_META_GO } from '../apimachinery/json/go-json-errors';
import { decodeJson } from '../apimachinery/json/schema-decoder';
import { strictDecodingError, warningsOfStrictError } from '../apimachinery/json/strict-errors';
import { yamlToJson } from '../apimachinery/json/yaml-to-json';
import { ANY_MAP_NODE } from '../apimachinery/schema/generic-nodes';
import { schemaFor } from '../apimachinery/schema/kinds';
import { canonicalApiVersion } from '../apimachinery/schema/group-aliases';
import { parseApiVersion } from '../apimachinery/schema/group-version';
import { notRegisteredText } from '../apimachinery/schema/scheme';
import {
  decodeEnvelope,
  decodeProtobufObject,
  messageNameOf,
  orchApiVersion,
  type Envelope,
} from '../apimachinery/serializers/protobuf';
import type { ApiObject } from '../apimachinery/meta/types';
import { goShape } from '../apimachinery/serializers/go-shape';
import { isPlainObject } from '../apimachinery/meta/types';
import type { ResourceDefinition } from '../registry/rest/resource';
import { apiVersionOfDefinition } from '../registry/rest/resource';
import type { BodyFormat } from './negotiation';
import type { FieldValidation } from './handlers/write-options';

const SUMMARY_BYTES = 30;
/** Metadata strings a client may send as null; Go decodes them as empty, so they are left out. */
const NULLABLE_STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'] as const;

/** How Kubernetes summarises an undecodable body in its error: short JSON verbatim, else truncated/hex. */
function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const text = body.toString('utf8');
  if (text.startsWith('{'))
    return body.length <= SUMMARY_BYTES ? text : `${body.subarray(0, SUMMARY_BYTES).toString('utf8')} ...`;
  return `${body.subarray(0, SUMMARY_BYTES).toString('hex')}${body.length > SUMMARY_BYTES ? ' ...' : ''}`;
}

function unrecognized(def: ResourceDefinition, detail: string, body: Buffer): Error {
  return badRequest(
    `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: ${detail} (${summarize(body)})`,
  );
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
    if (apiVersion === apiVersionOfDefinition(def) && kind === def.kind)
      throw badRequest(`the body of the request for ${def.kind} cannot be decoded from protobuf`);
    return { apiVersion, kind };
  }
  const bodyVersion = apiVersion.slice(apiVersion.indexOf('/') + 1);
  try {
    return { kind, apiVersion, ...decodeProtobufObject(apiVersion, kind, envelope.raw) };
  } catch (err) {
    throw reworded(err, `${kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: `);
  }
}

/** A JSON or YAML body decoded against the kind's schema: the value, Go's decoding error, strict problems. */
interface TextDecoding {
  value: unknown;
  error: string | undefined;
  /** yaml.v2's repeated-key error first (YAML), then unknown/duplicate fields in document order. */
  problems: string[];
}

function decodeText(body: Buffer, format: 'json' | 'yaml', def: ResourceDefinition, strict: boolean): TextDecoding {
  let json = body.toString('utf8');
  let yamlDuplicates: string | undefined;
  if (format === 'yaml') {
    try {
      ({ json, duplicateKeysError: yamlDuplicates } = yamlToJson(json, { strict }));
    } catch (err) {
      throw badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    // A kind the catalog lacks is decoded as Go's map[string]interface{} would take it: any fields, repeats still found.
    const decoded = decodeJson(json, schemaFor(apiVersionOfDefinition(def), def.kind) ?? ANY_MAP_NODE, { strict });
    const problems = yamlDuplicates === undefined ? decoded.strictErrors : [yamlDuplicates, ...decoded.strictErrors];
    return { value: decoded.value, error: decoded.error, problems };
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw unrecognized(def, err.message, body);
    throw err;
  }
}

/** The Go package of a group's internal types, as reflect prints them (`core`, `apps`, `flowcontrol`). */
function internalPackage(group: string): string {
  return group === '' ? 'core' : (group.split('.')[0] ?? group);
}

/** `<Kind> in version "<v>" cannot be handled as a <URL kind>: <detail>` (apiserver transformDecodeError). */
function cannotBeHandled(def: ResourceDefinition, kind: string, bodyVersion: string, detail: string): Error {
  return badRequest(`${kind} in version "${bodyVersion}" cannot be handled as a ${def.kind}: ${detail}`);
}

/** What the meta factory's json.Unmarshal into `{apiVersion, kind string}` says of a wrongly typed apiVersion/kind. */
function checkTypeMeta(def: ResourceDefinition, value: Record<string, unknown>, body: Buffer): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = value[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw unrecognized(
        def,
        `json: cannot unmarshal ${goJsonKind(v)} into Go struct field .${field} of type string`,
        body,
      );
    }
  }
}

export interface DecodedBody {
  object: ApiObject;
  /** Warning texts for fieldValidation=Warn: one per unknown or duplicate field (YAML repeats as yaml.v2 words them). */
  warnings: string[];
}

/** The directive the handlers act on: `Ignore` whenever the ServerSideFieldValidation gate is off (apiserver rest.go fieldValidation). */
export function fieldValidationDirective(
  requested: FieldValidation,
  serverSideFieldValidation: boolean,
): FieldValidation {
  return serverSideFieldValidation ? requested : 'Ignore';
}

/** Strict decoding problems under a directive: `Strict` fails with all of them, `Warn` returns them as warnings. */
function strictOutcome(
  def: ResourceDefinition,
  kind: string,
  bodyVersion: string,
  directive: FieldValidation,
  problems: string[],
): string[] {
  if (problems.length === 0 || directive === 'Ignore') return [];
  if (directive === 'Strict') throw cannotBeHandled(def, kind, bodyVersion, strictDecodingError(problems));
  return problems.flatMap(warningsOfStrictError);
}

/**
 * Decodes a create/update body of the URL's kind: apiVersion/kind checked against the URL (defaulted when
 * absent), field types checked against the kind's schema (400 with Go's decoder text), unknown fields
 * dropped, and unknown or repeated fields reported per `directive` (JSON and YAML; protobuf bodies are
 * never strict-checked, as in Kubernetes).
 */
export function decodeBody(
  body: Buffer,
  format: BodyFormat,
  def: ResourceDefinition,
  isKnownKind: (apiVersion: string, kind: string) => boolean,
  directive: FieldValidation,
): DecodedBody {
  const expectedApiVersion = apiVersionOfDefinition(def);
  const {
    value,
    error: decodeError,
    problems,
  } = format === 'protobuf'
    ? { value: parseProtobuf(body, def), error: undefined, problems: [] }
    : decodeText(body, format, def, directive !== 'Ignore');
  if (!isPlainObject(value))
    throw unrecognized(def, `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${TYPE_META_GO}`, body);
  if (format !== 'protobuf') checkTypeMeta(def, value, body);
  const given =
    typeof value['apiVersion'] === 'string' && value['apiVersion'] !== '' ? value['apiVersion'] : expectedApiVersion;
  // Either name of a group served under its Kubernetes name too (events.k8s.io/v1 = events.orch.io/v1).
  const apiVersion =
    canonicalApiVersion(given) === canonicalApiVersion(expectedApiVersion)
      ? expectedApiVersion
      : canonicalApiVersion(given);
  const kind = typeof value['kind'] === 'string' && value['kind'] !== '' ? value['kind'] : def.kind;
  const bodyVersion = parseApiVersion(apiVersion).version;
  if (apiVersion !== expectedApiVersion || kind !== def.kind) {
    if (!isKnownKind(apiVersion, kind)) {
      throw cannotBeHandled(def, kind, bodyVersion, notRegisteredText(kind, apiVersion));
    }
    // Go decodes the body's own kind, then converts it to the URL kind's internal type: only the same group and kind convert.
    if (kind !== def.kind || parseApiVersion(apiVersion).group !== def.group) {
      throw cannotBeHandled(
        def,
        kind,
        bodyVersion,
        `converting (${bodyVersion}.${kind}) to (${internalPackage(def.group)}.${def.kind}): unknown conversion`,
      );
    }
    throw badRequest(
      `the API version in the data (${apiVersion}) does not match the expected API version (${expectedApiVersion})`,
    );
  }
  if (decodeError !== undefined) throw cannotBeHandled(def, kind, bodyVersion, decodeError);
  const warnings = strictOutcome(def, kind, bodyVersion, directive, problems);
  const metadata = value['metadata'] ?? {};
  if (!isPlainObject(metadata))
    throw cannotBeHandled(
      def,
      kind,
      bodyVersion,
      `json: cannot unmarshal ${goJsonKind(metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`,
    );
  for (const field of NULLABLE_STRING_FIELDS) if (metadata[field] === null) delete metadata[field];
  // Go decodes the body into its type: what the server handles from here on is that object as Go writes it.
  return { object: goShape({ ...value, apiVersion, kind, metadata } as ApiObject), warnings }; // metadata types checked by the schema decoder
}

/** decodeBody with fieldValidation=Ignore (types still checked, unknown fields dropped), for callers without a directive. */
export function decodeObject(
  body: Buffer,
  format: BodyFormat,
  def: ResourceDefinition,
  isKnownKind: (apiVersion: string, kind: string) => boolean,
): ApiObject {
  return decodeBody(body, format, def, isKnownKind, 'Ignore').object;
}
