// The `k8s\0` + runtime.Unknown envelope of a protobuf body: check the prefix, read typeMeta and raw, and build it for encoders.
import { badRequest } from '../../errors';
import { protoType } from './catalog';
import type { ReverseWriter } from './reverse-writer';
import { encodeWith } from './scratch-writer';

export const PROTOBUF_PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const UNKNOWN = 'k8s.io.apimachinery.pkg.runtime.Unknown';

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** Decodes one protobuf message into plain values (int64 as numbers, bytes as Uint8Array), 400 on malformed input. */
export function decodeMessage(typeName: string, bytes: Uint8Array): Record<string, unknown> {
  const type = protoType(typeName);
  try {
    return type.toObject(type.decode(bytes), { longs: Number, defaults: false });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw badRequest(`proto: ${typeName.slice(typeName.lastIndexOf('.') + 1)}: ${detail}`);
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Kubernetes' protobuf serializer's errors for a missing or wrong prefix, then the Unknown's fields. */
export function decodeEnvelope(body: Buffer): Envelope {
  if (body.length === 0) throw badRequest('empty data');
  if (body.length < PROTOBUF_PREFIX.length || !body.subarray(0, PROTOBUF_PREFIX.length).equals(PROTOBUF_PREFIX)) {
    throw badRequest(
      `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_PREFIX].join(' ')}]`,
    );
  }
  const unknown = decodeMessage(UNKNOWN, body.subarray(PROTOBUF_PREFIX.length));
  const contentEncoding = text(unknown['contentEncoding']);
  if (contentEncoding !== '') throw badRequest(`unsupported protobuf contentEncoding "${contentEncoding}"`);
  const contentType = text(unknown['contentType']);
  if (contentType !== '' && !/^application\/vnd\.(kubernetes|orch)\.protobuf$/.test(contentType))
    throw badRequest(`unsupported embedded contentType "${contentType}"`);
  const typeMeta = unknown['typeMeta'];
  const meta =
    typeof typeMeta === 'object' && typeMeta !== null ? new Map(Object.entries(typeMeta)) : new Map<string, unknown>();
  const raw = unknown['raw'];
  return {
    apiVersion: text(meta.get('apiVersion')),
    kind: text(meta.get('kind')),
    raw: raw instanceof Uint8Array ? raw : new Uint8Array(),
  };
}

/** Prefix + Unknown{typeMeta, raw}, as Kubernetes writes it. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const type = protoType(UNKNOWN);
  const message = type.fromObject({ typeMeta: { apiVersion, kind }, raw });
  return Buffer.concat([PROTOBUF_PREFIX, type.encode(message).finish()]);
}

// Unknown's field tags: typeMeta=1, raw=2; TypeMeta's apiVersion=1, kind=2.
const TAG_TYPE_META = Uint8Array.of(0x0a);
const TAG_RAW = Uint8Array.of(0x12);
const TAG_API_VERSION = Uint8Array.of(0x0a);
const TAG_KIND = Uint8Array.of(0x12);

/** What follows raw: contentEncoding=3 and contentType=4, both "" (written, as Go does). */
export const ENVELOPE_TAIL: Uint8Array = Uint8Array.of(0x1a, 0x00, 0x22, 0x00);

/** Writes what precedes `rawLength` bytes of raw: the prefix, Unknown's typeMeta, and raw's tag and length. */
function writeEnvelopeHead(w: ReverseWriter, apiVersion: string, kind: string, rawLength: number): void {
  w.uint32(rawLength);
  w.tag(TAG_RAW);
  const typeMetaStart = w.length;
  w.string(kind);
  w.tag(TAG_KIND);
  w.string(apiVersion);
  w.tag(TAG_API_VERSION);
  w.uint32(w.length - typeMetaStart);
  w.tag(TAG_TYPE_META);
  w.bytes(PROTOBUF_PREFIX);
}

/**
 * Writes prefix + Unknown{typeMeta, raw, contentEncoding "", contentType ""} around the message `writeRaw` writes,
 * in the order of runtime.Unknown's NestedMarshalTo.
 */
export function writeEnvelope(w: ReverseWriter, apiVersion: string, kind: string, writeRaw: () => void): void {
  w.bytes(ENVELOPE_TAIL);
  const rawStart = w.length;
  writeRaw();
  writeEnvelopeHead(w, apiVersion, kind, w.length - rawStart);
}

/** The envelope's bytes before a raw message of `rawLength` bytes (bodies assembled from encoded parts). */
export function envelopeHead(apiVersion: string, kind: string, rawLength: number): Buffer {
  return encodeWith((w) => writeEnvelopeHead(w, apiVersion, kind, rawLength));
}
