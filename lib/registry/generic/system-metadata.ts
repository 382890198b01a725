// Fields the server owns in ObjectMeta: set on create, carried over on update.
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../../apimachinery/meta/types';

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
