// Protobuf (`application/vnd.orch.protobuf`, alias `application/vnd.kubernetes.protobuf`): request bodies decoded to
// the JSON object shape (envelope → catalog message → JSON), responses and watch frames encoded from it.
import { badRequest } from '../../errors';
import { isPlainObject } from '../../meta/types';
import { protoType } from './catalog';
import { decodeEnvelope, decodeMessage, encodeEnvelope, type Envelope } from './envelope';
import { objectToMessage } from './from-json';
import { messageNameOf } from './kinds';
import { messageJson } from './to-json';
import { notRegisteredText } from '../../schema/scheme';

export { decodeEnvelope, PROTOBUF_PREFIX, type Envelope } from './envelope';
export { messageNameOf, orchApiVersion, responseMessageNameOf } from './kinds';
export { encodeProtobufResponse, encodeWatchEventProtobuf } from './encode-response';
export { encodeProtobufList, encodeProtobufListParts } from './encode-list';
export { allowMessageReuse } from './reused-messages';

export interface DecodedBody {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/** Embedded envelopes (RawExtension/FieldsV1 bytes holding a protobuf object) deeper than this are refused, so a
 * crafted body cannot exhaust the stack. */
const MAX_EMBEDDED_DEPTH = 8;

function decodeObjectAt(apiVersion: string, kind: string, raw: Uint8Array, depth: number): Record<string, unknown> {
  const typeName = messageNameOf(apiVersion, kind);
  if (typeName === undefined) throw badRequest(notRegisteredText(kind, apiVersion));
  const nested = (embedded: Uint8Array): unknown => {
    if (depth >= MAX_EMBEDDED_DEPTH)
      throw badRequest(`embedded objects are nested more than ${MAX_EMBEDDED_DEPTH} levels deep`);
    const decoded = decodeBodyAt(Buffer.from(embedded), depth + 1);
    return { apiVersion: decoded.apiVersion, kind: decoded.kind, ...decoded.object };
  };
  const json = messageJson(typeName, decodeMessage(typeName, raw), nested);
  return isPlainObject(json) ? json : {};
}

function decodeBodyAt(body: Buffer, depth: number): DecodedBody {
  const envelope: Envelope = decodeEnvelope(body);
  if (envelope.apiVersion === '' || envelope.kind === '') throw badRequest("Object 'Kind' is missing in protobuf body");
  return {
    apiVersion: envelope.apiVersion,
    kind: envelope.kind,
    object: decodeObjectAt(envelope.apiVersion, envelope.kind, envelope.raw, depth),
  };
}

/** The object in `raw`, as JSON, read as `apiVersion`/`kind` (which pick the message); 400 when unknown or malformed. */
export function decodeProtobufObject(apiVersion: string, kind: string, raw: Uint8Array): Record<string, unknown> {
  return decodeObjectAt(apiVersion, kind, raw, 0);
}

/** Decodes a whole protobuf body; the returned object holds no apiVersion/kind (they are returned beside it). */
export function decodeProtobufBody(body: Buffer): DecodedBody {
  return decodeBodyAt(body, 0);
}

/** Encodes the JSON form of a root kind as a protobuf body (prefix + Unknown); apiVersion/kind properties are ignored. */
export function encodeProtobufBody(apiVersion: string, kind: string, object: Record<string, unknown>): Buffer {
  const typeName = messageNameOf(apiVersion, kind);
  if (typeName === undefined) throw badRequest(notRegisteredText(kind, apiVersion));
  const type = protoType(typeName);
  const message = type.fromObject(objectToMessage(typeName, object));
  return encodeEnvelope(apiVersion, kind, type.encode(message).finish());
}
