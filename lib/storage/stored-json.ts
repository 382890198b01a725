// Serialize once: the JSON bytes an object was stored as are kept beside the decoded object, and responses
// splice `metadata.resourceVersion` into them instead of stringifying the object again.
import type { ApiObject } from '../apimachinery/meta/types';

/** Values written by encodeObject start like this, so the first `"metadata":{` is the top-level one. */
const STORED_PREFIX = /^\{"apiVersion":"[^"\\]*","kind":"[^"\\]*","metadata":\{/;
const METADATA_OPEN = '"metadata":{';

const storedJson = new WeakMap<ApiObject, string>();

/** Remembers `json` (the stored form, without resourceVersion) as the serialization of `obj`. */
export function rememberStoredJson(obj: ApiObject, json: string): void {
  if (STORED_PREFIX.test(json)) storedJson.set(obj, json);
}

/**
 * The JSON of `obj` as served, or undefined when its stored bytes are unknown. `withTypeMeta` false drops
 * apiVersion and kind (list items, as Kubernetes writes them). Valid only while `obj` is unchanged since decode.
 */
export function servedJson(obj: ApiObject, withTypeMeta = true): string | undefined {
  const json = storedJson.get(obj);
  if (json === undefined) return undefined;
  const open = json.indexOf(METADATA_OPEN) + METADATA_OPEN.length;
  const rv = obj.metadata.resourceVersion;
  const inserted = rv === undefined ? '' : `"resourceVersion":${JSON.stringify(rv)}${json[open] === '}' ? '' : ','}`;
  const head = withTypeMeta ? json.slice(0, open) : `{${METADATA_OPEN}`;
  return head + inserted + json.slice(open);
}
