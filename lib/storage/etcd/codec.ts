// Stored values: the object's JSON without metadata.resourceVersion (etcd's mod_revision supplies it).
import type { ApiObject } from '../../apimachinery/meta/types';
import { StorageError } from '../storage-error';

export function encodeObject(obj: ApiObject): Buffer {
  const { resourceVersion: _dropped, ...metadata } = obj.metadata;
  return Buffer.from(JSON.stringify({ ...obj, metadata }));
}

export function decodeObject(key: string, value: Buffer, modRevision: string | number): ApiObject {
  let obj: ApiObject;
  try {
    obj = JSON.parse(value.toString('utf8')) as ApiObject; // written by encodeObject, so the shape is ours
  } catch (err) {
    throw new StorageError('InvalidObject', key, `stored value is not valid JSON: ${String(err)}`, { cause: err });
  }
  obj.metadata = { ...obj.metadata, resourceVersion: String(modRevision) };
  return obj;
}
