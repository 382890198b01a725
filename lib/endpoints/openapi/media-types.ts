// The media types operations document: what responses can be negotiated to and what request bodies may be.
import { PROTOBUF_MEDIA_TYPE } from '../negotiation';
import type { Operation } from './routes';
import { PATCH_TYPES as ROUTE_PATCH_TYPES } from '../routes/route-table';

/** Response representations of every operation (the server's protobuf type, orch-branded). */
const RESPONSE_TYPES = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];
const STREAM_TYPES = ['application/json;stream=watch', `${PROTOBUF_MEDIA_TYPE};stream=watch`];

/** The patch types PATCH consumes, sorted as kube-openapi lists them (server-side apply is the first). */
export const PATCH_TYPES = [...ROUTE_PATCH_TYPES].sort();

/** Any body the server decodes (JSON, YAML, protobuf), written as Kubernetes does. */
export const ANY_BODY_TYPE = '*/*';

export function responseTypes(op: Operation): string[] {
  return op.streams ? [...RESPONSE_TYPES, ...STREAM_TYPES] : RESPONSE_TYPES;
}

export function requestTypes(op: Operation): string[] {
  return op.body?.kind === 'patch' ? PATCH_TYPES : [ANY_BODY_TYPE];
}
