// Protobuf request bodies (`application/vnd.kubernetes.protobuf`): envelope → catalog message → the JSON object shape.
import { badRequest } from '../../errors';
import { isPlainObject } from '../../meta/types';
import { protoType } from './catalog';
import { decodeEnvelope, decodeMessage, encodeEnvelope, type Envelope } from './envelope';
import { objectToMessage } from './from-json';
import { messageNameOf } from './kinds';
import { messageJson } from './to-json';

export { decodeEnvelope, PROTOBUF_PREFIX, type Envelope } from './envelope';
export { messageNameOf, orchApiVersion } from './kinds';

const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

export interface DecodedBody {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/** The object in `raw`, as JSON, read as `apiVersion`/`kind` (which pick the message); 400 when unknown or malformed. */
export function decodeProtobufObject(apiVersion: string, kind: string, raw: Uint8Array): Record<string, unknown> {
  const typeName = messageNameOf(apiVersion, kind);
  if (typeName === undefined) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCHEME_NAME}"`);
  const json = messageJson(typeName, decodeMessage(typeName, raw), decodeNested);
  return isPlainObject(json) ? json : {};
}

function decodeNested(raw: Uint8Array): unknown {
  const { apiVersion, kind, object } = decodeProtobufBody(Buffer.from(raw));
  return { apiVersion, kind, ...object };
}

/** Decodes a whole protobuf body; the returned object holds no apiVersion/kind (they are returned beside it). */
export function decodeProtobufBody(body: Buffer): DecodedBody {
  const envelope: Envelope = decodeEnvelope(body);
  if (envelope.apiVersion === '' || envelope.kind === '') throw badRequest('Object \'Kind\' is missing in protobuf body');
  return { apiVersion: envelope.apiVersion, kind: envelope.kind, object: decodeProtobufObject(envelope.apiVersion, envelope.kind, envelope.raw) };
}

/** Encodes the JSON form of a root kind as a protobuf body (prefix + Unknown); apiVersion/kind properties are ignored. */
export function encodeProtobufBody(apiVersion: string, kind: string, object: Record<string, unknown>): Buffer {
  const typeName = messageNameOf(apiVersion, kind);
  if (typeName === undefined) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCHEME_NAME}"`);
  const type = protoType(typeName);
  const message = type.fromObject(objectToMessage(typeName, object));
  return encodeEnvelope(apiVersion, kind, type.encode(message).finish());
}
