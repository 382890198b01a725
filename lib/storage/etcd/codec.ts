// Stored values: the object's JSON without metadata.resourceVersion (etcd's mod_revision supplies it),
// with apiVersion, kind and metadata first so responses can reuse the bytes (see apimachinery/serializers/served-json.ts).
import type { ApiObject } from '../../apimachinery/meta/types';
import { goShape } from '../../apimachinery/serializers/go-shape';
import { StorageError } from '../storage-error';
import { rememberStoredJson } from '../../apimachinery/serializers/served-json';
import { compactFromStored } from '../../apimachinery/serializers/compact-object';

/** The object as it is stored: as Kubernetes writes it from its Go type (see goShape). */
export function storedForm(obj: ApiObject): ApiObject {
  return goShape(obj);
}

export function encodeObject(obj: ApiObject): string {
  const { resourceVersion: _dropped, ...metadata } = obj.metadata;
  const { apiVersion, kind, metadata: _metadata, ...rest } = obj;
  return JSON.stringify({ apiVersion, kind, metadata, ...rest });
}

/** `obj` with its resourceVersion, remembering `json` as its serialization. */
export function withStoredJson(obj: ApiObject, json: string, modRevision: string | number): ApiObject {
  const stored: ApiObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(modRevision) } };
  rememberStoredJson(stored, json);
  return stored;
}

export function decodeObject(key: string, value: Buffer, modRevision: string | number): ApiObject {
  let obj: ApiObject;
  try {
    obj = JSON.parse(value.toString('utf8')) as ApiObject; // written by encodeObject, so the shape is ours
  } catch (err) {
    throw new StorageError('InvalidObject', key, `stored value is not valid JSON: ${String(err)}`, { cause: err });
  }
  obj.metadata = { ...obj.metadata, resourceVersion: String(modRevision) };
  rememberStoredJson(obj, value);
  return obj;
}

/**
 * A stored value as the watch cache holds it (a compact object, as the cache fill makes them): only the metadata that
 * keys, selectors and versions read is decoded, the rest when read. Bytes in another layout are decoded in full
 * (decodeObject, which also rejects a value that is not JSON).
 */
export function decodeCompact(key: string, value: Buffer, modRevision: string | number): ApiObject {
  let compact: ApiObject | undefined;
  try {
    compact = compactFromStored(value, String(modRevision));
  } catch {
    compact = undefined; // malformed metadata: decodeObject says what is wrong
  }
  return compact ?? decodeObject(key, value, modRevision);
}
