// Test-only protobuf decoder, independent of the server's encoder: a hand-rolled wire reader driven straight by
// shared/data/k8s-1.26-types.json (not the server's catalog.json, not protobufjs), giving the JSON form Go would print.
// It is strict where Kubernetes' gogo marshallers are: fields in ascending order, known numbers only, and every
// non-pointer scalar or struct present on the wire.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface TypeField {
  name: string;
  number: number;
  type: string | null;
  label: 'optional' | 'repeated';
  map: { key: string; value: string } | null;
  jsonName: string | null;
  jsonInline: boolean;
  omitempty: boolean | null;
  goPointer: boolean | null;
}

interface TypeMessage {
  jsonRepresentation: { jsonType: string } | null;
  fields: TypeField[];
}

/** The project's copy of the type catalog (see lib/apimachinery/schema/PROVENANCE.md), read directly, not through the encoder's code. */
const TYPES_FILE = resolve(__dirname, '../../lib/apimachinery/schema/k8s-1.26-types.json');
/** Plus the supplement of auth kinds the shared catalog lacks (tools/auth-catalog.py). */
const AUTH_TYPES_FILE = resolve(__dirname, '../../lib/apimachinery/schema/k8s-1.26-auth-types.json');
const types = {
  ...(JSON.parse(readFileSync(TYPES_FILE, 'utf8')) as { messages: Record<string, TypeMessage> }).messages,
  ...(JSON.parse(readFileSync(AUTH_TYPES_FILE, 'utf8')) as { messages: Record<string, TypeMessage> }).messages,
};

const PREFIX = [0x6b, 0x38, 0x73, 0x00];
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Wire value of one field occurrence. */
type WireValue =
  | { wireType: 0; varint: bigint }
  | { wireType: 1; fixed: Uint8Array }
  | { wireType: 2; bytes: Uint8Array }
  | { wireType: 5; fixed: Uint8Array };

function readVarint(buf: Uint8Array, at: { pos: number }): bigint {
  let result = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (at.pos >= buf.length) throw new Error('truncated varint');
    const b = buf[at.pos++] as number;
    result |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return result;
  }
  throw new Error('varint longer than 10 bytes');
}

/** Every field occurrence of a message, in wire order. */
export function readWireFields(buf: Uint8Array): Array<{ number: number; value: WireValue }> {
  const at = { pos: 0 };
  const out: Array<{ number: number; value: WireValue }> = [];
  while (at.pos < buf.length) {
    const key = Number(readVarint(buf, at));
    const number = key >>> 3;
    const wireType = key & 7;
    if (number === 0) throw new Error('field number 0');
    const take = (n: number): Uint8Array => {
      if (at.pos + n > buf.length) throw new Error('truncated field');
      const slice = buf.subarray(at.pos, at.pos + n);
      at.pos += n;
      return slice;
    };
    if (wireType === 0) out.push({ number, value: { wireType, varint: readVarint(buf, at) } });
    else if (wireType === 1) out.push({ number, value: { wireType, fixed: take(8) } });
    else if (wireType === 2) out.push({ number, value: { wireType, bytes: take(Number(readVarint(buf, at))) } });
    else if (wireType === 5) out.push({ number, value: { wireType, fixed: take(4) } });
    else throw new Error(`unsupported wire type ${wireType}`);
  }
  return out;
}

function bytesOf(v: WireValue): Uint8Array {
  if (v.wireType !== 2) throw new Error(`expected length-delimited, got wire type ${v.wireType}`);
  return v.bytes;
}

function varintsOf(v: WireValue): bigint[] {
  if (v.wireType === 0) return [v.varint];
  const b = bytesOf(v); // packed
  const at = { pos: 0 };
  const out: bigint[] = [];
  while (at.pos < b.length) out.push(readVarint(b, at));
  return out;
}

function scalarJson(type: string, v: WireValue): unknown {
  switch (type) {
    case 'string':
      return Buffer.from(bytesOf(v)).toString('utf8');
    case 'bytes':
      return Buffer.from(bytesOf(v)).toString('base64');
    case 'bool':
      return varintsOf(v)[0] !== 0n;
    case 'int32':
    case 'int64':
      return Number(BigInt.asIntN(64, varintsOf(v)[0] ?? 0n));
    case 'double':
      if (v.wireType !== 1) throw new Error('expected fixed64');
      return Buffer.from(v.fixed).readDoubleLE(0);
    default:
      throw new Error(`unknown scalar ${type}`);
  }
}

function zeroScalar(type: string): unknown {
  if (type === 'string') return '';
  if (type === 'bool') return false;
  return 0;
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

function fieldsByNumber(name: string, buf: Uint8Array, message: TypeMessage): Map<number, WireValue[]> {
  const known = new Set(message.fields.map((f) => f.number));
  const byNumber = new Map<number, WireValue[]>();
  let last = 0;
  for (const { number, value } of readWireFields(buf)) {
    if (!known.has(number)) throw new Error(`${name}: unknown field ${number}`);
    if (number < last) throw new Error(`${name}: field ${number} after ${last} (gogo writes ascending numbers)`);
    last = number;
    const list = byNumber.get(number) ?? [];
    list.push(value);
    byNumber.set(number, list);
  }
  return byNumber;
}

function rfc3339(seconds: number, micros?: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micros === undefined ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
}

function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const h = Math.floor(ns / 3600e9);
  const m = Math.floor((ns % 3600e9) / 60e9);
  const s = (ns % 60e9) / 1e9;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}

/** A message with a custom JSON form; undefined is Go's null (zero Time), left out. */
function specialJson(name: string, jsonType: string, buf: Uint8Array): unknown {
  const f = fieldsByNumber(name, buf, types[name] as TypeMessage);
  const one = (n: number): WireValue | undefined => f.get(n)?.at(-1);
  const num = (n: number): number => {
    const v = one(n);
    return v === undefined ? 0 : (scalarJson('int64', v) as number);
  };
  const str = (n: number): string => {
    const v = one(n);
    return v === undefined ? '' : (scalarJson('string', v) as string);
  };
  switch (jsonType) {
    case 'date-time':
      if (buf.length === 0) return undefined;
      return name.endsWith('.MicroTime') ? rfc3339(num(1), Math.floor(num(2) / 1000)) : rfc3339(num(1));
    case 'quantity':
      return str(1);
    case 'int-or-string':
      return num(1) === 1 ? str(3) : num(2);
    case 'raw': {
      const raw = one(1);
      return raw === undefined ? undefined : rawJson(bytesOf(raw));
    }
    case 'array':
      return (f.get(1) ?? []).map((v) => scalarJson('string', v));
    case 'string':
      return goDuration(num(1));
    default:
      throw new Error(`${name}: unknown JSON form ${jsonType}`);
  }
}

/** RawExtension bytes: a nested protobuf envelope, or embedded JSON. */
function rawJson(raw: Uint8Array): unknown {
  if (PREFIX.every((b, i) => raw[i] === b)) {
    const { apiVersion, kind, object } = decodeProtobufEnvelope(raw);
    return { apiVersion, kind, ...object };
  }
  return JSON.parse(Buffer.from(raw).toString('utf8'));
}

function valueJson(type: string, v: WireValue | undefined): unknown {
  if (types[type] === undefined) return v === undefined ? zeroScalar(type) : scalarJson(type, v);
  return messageJson(type, v === undefined ? new Uint8Array() : bytesOf(v));
}

function mapJson(field: TypeField, values: WireValue[]): Record<string, unknown> | undefined {
  if (values.length === 0 || field.map === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const entry of values) {
    const parts = readWireFields(bytesOf(entry));
    const key = parts.find((p) => p.number === 1);
    const value = parts.find((p) => p.number === 2);
    out[key === undefined ? '' : (scalarJson('string', key.value) as string)] = valueJson(
      field.map.value,
      value?.value,
    );
  }
  return out;
}

function repeatedJson(field: TypeField, values: WireValue[]): unknown[] | undefined {
  const type = field.type ?? 'string';
  if (values.length === 0) return undefined;
  if (type === 'int32' || type === 'int64') return values.flatMap(varintsOf).map((v) => Number(BigInt.asIntN(64, v)));
  return values.map((v) => valueJson(type, v));
}

/** Go's encoding/json output of one field; undefined when Go leaves it out (or writes null: nil slice/map, zero Time). */
function fieldJson(name: string, field: TypeField, values: WireValue[]): unknown {
  if (field.map !== null) return mapJson(field, values);
  if (field.label === 'repeated') return repeatedJson(field, values);
  const type = field.type ?? 'string';
  const last = values.at(-1);
  const isScalar = types[type] === undefined;
  const alwaysOnWire =
    !field.goPointer && (isScalar ? type !== 'bytes' : types[type]?.jsonRepresentation?.jsonType !== 'array');
  if (last === undefined) {
    if (alwaysOnWire) throw new Error(`${name}.${field.name}: a non-pointer field gogo always writes is missing`);
    return undefined;
  }
  const json = valueJson(type, last);
  return isScalar && field.omitempty && !field.goPointer && isZero(json) ? undefined : json;
}

function messageJson(name: string, buf: Uint8Array): unknown {
  const message = types[name];
  if (message === undefined) throw new Error(`unknown message ${name}`);
  if (message.jsonRepresentation !== null) return specialJson(name, message.jsonRepresentation.jsonType, buf);
  const byNumber = fieldsByNumber(name, buf, message);
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    const json = fieldJson(name, field, byNumber.get(field.number) ?? []);
    if (json === undefined) continue;
    if (field.jsonInline) Object.assign(out, json);
    else if (field.jsonName !== null) out[field.jsonName] = json;
  }
  return out;
}

/** The proto message of a served apiVersion/kind (orch group names), as a client's scheme would resolve it. */
function messageNameFor(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const packages: Record<string, string> = {
    '': 'core',
    apps: 'apps',
    autoscaling: 'autoscaling',
    'flowcontrol.apiserver.orch.io': 'flowcontrol',
    'rbac.authorization.orch.io': 'rbac',
    'rbac.authorization.k8s.io': 'rbac',
    'authorization.orch.io': 'authorization',
    'authorization.k8s.io': 'authorization',
    'authentication.orch.io': 'authentication',
    'authentication.k8s.io': 'authentication',
    'events.orch.io': 'events',
    'events.k8s.io': 'events',
    'admissionregistration.orch.io': 'admissionregistration',
    'admissionregistration.k8s.io': 'admissionregistration',
  };
  const metaKinds = ['Status', 'APIResourceList', 'APIGroupList', 'APIGroup', 'APIVersions', 'WatchEvent'];
  const metaGroup = group === 'meta.k8s.io' || group === 'meta.orch.io';
  const name =
    (group === '' && metaKinds.includes(kind)) || metaGroup
      ? `${META}.${kind}`
      : `k8s.io.api.${packages[group ?? ''] ?? '?'}.${version}.${kind}`;
  if (types[name] === undefined) throw new Error(`no message for ${apiVersion} ${kind}`);
  return name;
}

export interface DecodedEnvelope {
  apiVersion: string;
  kind: string;
  contentEncoding: string;
  contentType: string;
  /** The object's JSON form without apiVersion/kind. */
  object: Record<string, unknown>;
}

/** Decodes `6b 38 73 00` + runtime.Unknown and the object in its raw bytes. */
export function decodeProtobufEnvelope(body: Uint8Array): DecodedEnvelope {
  if (!PREFIX.every((b, i) => body[i] === b)) throw new Error('missing k8s\\0 prefix');
  // Unknown and TypeMeta have no JSON names: read their fields by number.
  const unknownName = 'k8s.io.apimachinery.pkg.runtime.Unknown';
  const fields = fieldsByNumber(unknownName, body.subarray(PREFIX.length), types[unknownName] as TypeMessage);
  const text = (values: WireValue[] | undefined): string => {
    const v = values?.at(-1);
    return v === undefined ? '' : (scalarJson('string', v) as string);
  };
  const typeMetaBytes = fields.get(1)?.at(-1);
  const typeMetaName = 'k8s.io.apimachinery.pkg.runtime.TypeMeta';
  const typeMeta = fieldsByNumber(
    typeMetaName,
    typeMetaBytes === undefined ? new Uint8Array() : bytesOf(typeMetaBytes),
    types[typeMetaName] as TypeMessage,
  );
  const apiVersion = text(typeMeta.get(1));
  const kind = text(typeMeta.get(2));
  const raw = fields.get(2)?.at(-1);
  const object = messageJson(
    messageNameFor(apiVersion, kind),
    raw === undefined ? new Uint8Array() : bytesOf(raw),
  ) as Record<string, unknown>;
  return { apiVersion, kind, contentEncoding: text(fields.get(3)), contentType: text(fields.get(4)), object };
}

/** The JSON a client would see: apiVersion and kind from the envelope, then the object. */
export function decodeProtobufJson(body: Uint8Array): Record<string, unknown> {
  const { apiVersion, kind, object } = decodeProtobufEnvelope(body);
  return { kind, apiVersion, ...object };
}

/** Splits a `;stream=watch` body into its length-prefixed frames and decodes each bare WatchEvent. */
export function decodeWatchFrames(body: Uint8Array): Array<{ type: string; object: Record<string, unknown> }> {
  const events: Array<{ type: string; object: Record<string, unknown> }> = [];
  let pos = 0;
  while (pos < body.length) {
    if (pos + 4 > body.length) throw new Error('truncated frame length');
    const length = Buffer.from(body.subarray(pos, pos + 4)).readUInt32BE(0);
    const frame = body.subarray(pos + 4, pos + 4 + length);
    if (frame.length !== length) throw new Error('truncated frame');
    pos += 4 + length;
    const event = messageJson(`${META}.WatchEvent`, frame) as { type?: string; object?: Record<string, unknown> };
    events.push({ type: event.type ?? '', object: event.object ?? {} });
  }
  return events;
}
