// Serialize once: the JSON bytes an object was stored as are kept beside the decoded object, and responses
// splice `metadata.resourceVersion` into them instead of stringifying the object again.
import type { ApiObject } from '../meta/types';
import { allowMessageReuse } from './protobuf';

/** Values written by encodeObject start like this, so the first `"metadata":{` is the top-level one. */
const STORED_PREFIX = /^\{"apiVersion":"([^"\\]*)","kind":"([^"\\]*)","metadata":\{/;
const METADATA_OPEN = '"metadata":{';

const storedJson = new WeakMap<ApiObject, string>();

/**
 * Remembers `json` (the stored form, without resourceVersion) as the serialization of `obj`, an object just decoded
 * from storage, which nothing changes afterwards: so its protobuf message may be encoded once and kept too.
 */
export function rememberStoredJson(obj: ApiObject, json: string): void {
  allowMessageReuse(obj);
  if (STORED_PREFIX.test(json)) storedJson.set(obj, json);
}

/** `obj` with another resourceVersion, keeping its stored bytes for serving (DELETED events carry the delete's revision). */
export function withResourceVersion(obj: ApiObject, resourceVersion: string): ApiObject {
  const copy: ApiObject = { ...obj, metadata: { ...obj.metadata, resourceVersion } };
  allowMessageReuse(copy);
  const json = storedJson.get(obj);
  if (json !== undefined) storedJson.set(copy, json);
  return copy;
}

/**
 * The JSON of `obj` as served, or undefined when its stored bytes are unknown. `withTypeMeta` false drops
 * apiVersion and kind (list items, as Kubernetes writes them). Valid only while `obj` is unchanged since decode.
 */
export function servedJson(obj: ApiObject, withTypeMeta = true): string | undefined {
  const cache = withTypeMeta ? servedWithTypeMeta : servedAsItem;
  const hit = cache.get(obj);
  if (hit !== undefined) return hit;
  const json = storedJson.get(obj);
  if (json === undefined) return undefined;
  const served = spliceResourceVersion(json, obj.metadata.resourceVersion, withTypeMeta);
  // Objects held by the watch cache are served many times; the splice is done once per object and form.
  cache.set(obj, served);
  return served;
}

/** A list item's served JSON as UTF-8 bytes (memoized like servedJson), so a list body is one Buffer.concat. */
export function servedItemBytes(obj: ApiObject): Buffer | undefined {
  const hit = servedItemBuffers.get(obj);
  if (hit !== undefined) return hit;
  const json = servedJson(obj, false);
  if (json === undefined) return undefined;
  const bytes = Buffer.from(json);
  servedItemBuffers.set(obj, bytes);
  servedAsItem.delete(obj);
  return bytes;
}

const servedItemBuffers = new WeakMap<ApiObject, Buffer>();
const ITEM_START = Buffer.from(`{${METADATA_OPEN}`);

/** What a stored value of this apiVersion/kind starts with (see encodeObject). */
export function storedPrefix(apiVersion: string, kind: string): Buffer {
  return Buffer.from(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},${METADATA_OPEN}`);
}

/**
 * A list item straight from stored bytes: `{"metadata":{"resourceVersion":"N",…` without apiVersion/kind, as
 * buffers to concatenate (no decoding); undefined unless the value starts with `prefix` (storedPrefix).
 */
export function storedItemParts(value: Buffer, resourceVersion: string, prefix: Buffer): Buffer[] | undefined {
  if (value.length <= prefix.length || value.compare(prefix, 0, prefix.length, 0, prefix.length) !== 0)
    return undefined;
  const rest = value.subarray(prefix.length);
  const rv = Buffer.from(`"resourceVersion":${JSON.stringify(resourceVersion)}${rest[0] === 0x7d ? '' : ','}`);
  return [ITEM_START, rv, rest];
}

/** A stored value decoded, with its resourceVersion (values in another layout or version). */
export function decodeStoredValue(value: Buffer | string, resourceVersion: string): ApiObject {
  const obj = JSON.parse(typeof value === 'string' ? value : value.toString('utf8')) as ApiObject;
  obj.metadata = { ...obj.metadata, resourceVersion };
  return obj;
}
const servedWithTypeMeta = new WeakMap<ApiObject, string>();
const servedAsItem = new WeakMap<ApiObject, string>();

/** apiVersion and kind of a value stored by encodeObject, or undefined for bytes in another layout. */
export function storedTypeMeta(json: string): { apiVersion: string; kind: string } | undefined {
  const m = STORED_PREFIX.exec(json);
  return m ? { apiVersion: m[1] ?? '', kind: m[2] ?? '' } : undefined;
}

/** Stored JSON (see storedTypeMeta) with `metadata.resourceVersion` inserted. */
export function spliceResourceVersion(json: string, resourceVersion: string | undefined, withTypeMeta = true): string {
  const open = json.indexOf(METADATA_OPEN) + METADATA_OPEN.length;
  const inserted =
    resourceVersion === undefined
      ? ''
      : `"resourceVersion":${JSON.stringify(resourceVersion)}${json[open] === '}' ? '' : ','}`;
  const head = withTypeMeta ? json.slice(0, open) : `{${METADATA_OPEN}`;
  return head + inserted + json.slice(open);
}
