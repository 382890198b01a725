// Fields the server owns in ObjectMeta: set on create, carried over on update.
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../../apimachinery/meta/types';
import { badRequest, unknownError } from '../../apimachinery/errors';

const NAMESPACE_MISMATCH_TEXT = 'the namespace of the provided object does not match the namespace sent on the request';

/** RFC 3339 UTC with second precision, as metav1.Time serialises. */
export function nowTimestamp(now = new Date()): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/** FillObjectMetaSystemFields plus the create path's clearing of fields a client may not set. */
export function fillSystemMetadataOnCreate(obj: ApiObject): void {
  const meta = obj.metadata;
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (meta.generation !== undefined) delete meta.generation;
}

/** BeforeUpdate: the client cannot change these; uid defaults to the stored one. */
export function carrySystemMetadataOnUpdate(obj: ApiObject, old: ApiObject): void {
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
  if (!meta.uid && oldMeta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined)
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/** The create handler's WipeObjectMetaSystemFields: what a client sends in these is dropped before anything reads it. */
export function wipeSystemMetadata(obj: ApiObject): void {
  const meta = obj.metadata;
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/**
 * EnsureObjectNamespaceMatchesRequestNamespace: a cluster-scoped object loses any namespace, a namespaced one takes the
 * path's, and one naming another namespace is refused with 400.
 */
export function ensureRequestNamespace(obj: ApiObject, namespaced: boolean, requestNamespace: string): void {
  if (!namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (obj.metadata.namespace && obj.metadata.namespace !== requestNamespace) throw badRequest(NAMESPACE_MISMATCH_TEXT);
  obj.metadata.namespace = requestNamespace;
}

const MAX_UINT64 = 18446744073709551615n;

/**
 * etcd3 store.Create: a resourceVersion that parses as a non-zero uint64 (strconv.ParseUint, as the versioner's
 * ObjectResourceVersion) fails the create with a reason-less 500; an unparsable one is ignored.
 */
export function refuseResourceVersionOnCreate(resourceVersion: unknown): void {
  if (typeof resourceVersion !== 'string' || !/^[0-9]+$/.test(resourceVersion)) return;
  const value = BigInt(resourceVersion);
  if (value !== 0n && value <= MAX_UINT64)
    throw unknownError('resourceVersion should not be set on objects to be created');
}
