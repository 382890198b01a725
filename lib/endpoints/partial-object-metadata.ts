// PartialObjectMetadata answers (`Accept: …;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`, what client-go's
// metadata client and metadata informers send): each object reduced to its metadata, as kube-apiserver's response.go.
import { notAcceptable } from '../apimachinery/errors';
import type { ApiObject, ListMeta } from '../apimachinery/meta/types';
import type { PartialRequest, TableRequest } from './negotiation';
import { mapped, wholeDocument, type ListDocument } from '../apimachinery/serializers/list-document';

/** Go's `%T` of the internal object the request read (`*apps.DeploymentList`), as the 406 texts print it. */
function goTypeName(group: string, kind: string): string {
  return `*${group === '' ? 'core' : group.split('.')[0]}.${kind}`;
}

/** One object as PartialObjectMetadata of the requested meta group/version (also a Table row's object). */
export function asPartialObject(obj: ApiObject, target: TableRequest): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `${target.group}/${target.version}`, metadata: obj.metadata };
}

/** A GET's answer; asking for a PartialObjectMetadataList of one object is 406. */
export function partialObjectOf(obj: ApiObject, request: PartialRequest, group: string): Record<string, unknown> {
  if (request.list)
    throw notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(group, obj.kind ?? '')})`,
    );
  return asPartialObject(obj, request);
}

/** A list's answer (items null when empty: Kubernetes builds a fresh list); PartialObjectMetadata of a list is 406. */
export function partialListOf(
  items: readonly ApiObject[],
  listMeta: ListMeta,
  request: PartialRequest,
  group: string,
  listKind: string,
): Record<string, unknown> {
  return wholeDocument(partialListDocument(items, items.length, listMeta, request, group, listKind));
}

/** partialListOf as a ListDocument: each item reduced when it is written. */
export function partialListDocument(
  items: Iterable<ApiObject>,
  count: number,
  listMeta: ListMeta,
  request: PartialRequest,
  group: string,
  listKind: string,
): ListDocument {
  if (!request.list)
    throw notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(group, listKind)})`,
    );
  return {
    envelope: {
      kind: 'PartialObjectMetadataList',
      apiVersion: `${request.group}/${request.version}`,
      metadata: listMeta,
      items: null,
    },
    field: 'items',
    count,
    elements: mapped(items, (obj) => asPartialObject(obj, request)),
  };
}
