// Serialize once: the JSON bytes an object was stored as are kept beside the decoded object (once, as list-item
// bytes with `metadata.resourceVersion` in them), and responses derive from them instead of stringifying again.
import type { ApiObject } from '../meta/types';
import { allowMessageReuse } from './protobuf';
import { ObjectSlot } from './object-slot';

/** Values written by encodeObject start like this, so the first `"metadata":{` is the top-level one. */
const STORED_PREFIX = /^\{"apiVersion":"([^"\\]*)","kind":"([^"\\]*)","metadata":\{/;
const METADATA_OPEN = '"metadata":{';

/**
 * The one encoding kept per decoded object: the list-item bytes (`{"metadata":{"resourceVersion":"N",…}`, made
 * from the stored bytes at decode), or the stored JSON string of a just-written object until it is first served as
 * a list item. Every served form derives from it, so a cached object holds its JSON once.
 */
interface Kept {
  /** `{"apiVersion":…,"kind":…,` (shared between objects of one type). */
  head: string;
  /** The resourceVersion written into `item` / to be spliced into `json`. */
  resourceVersion: string | undefined;
  item?: Buffer;
  /** Where the bytes after the resourceVersion member start in `item`. */
  rest: number;
  json?: string;
}

const kept = new ObjectSlot<Kept>('served JSON');
const heads = new Map<string, string>();
/** Stored prefixes are short: this many bytes always hold one. */
const PREFIX_SCAN_BYTES = 512;

function sharedHead(prefix: string): string {
  const head = prefix.slice(0, -METADATA_OPEN.length);
  let shared = heads.get(head);
  if (shared === undefined) {
    shared = head;
    if (heads.size < 10_000) heads.set(head, head);
  }
  return shared;
}

/**
 * Remembers `stored` (the stored form without resourceVersion, as etcd's bytes or as the string just written) as the
 * serialization of `obj`, an object just decoded from storage, which nothing changes afterwards: so its protobuf
 * message may be encoded once and kept too.
 */
export function rememberStoredJson(obj: ApiObject, stored: string | Buffer): void {
  allowMessageReuse(obj);
  const text = typeof stored === 'string' ? stored : stored.toString('latin1', 0, PREFIX_SCAN_BYTES);
  const match = STORED_PREFIX.exec(text);
  if (match === null) return;
  const resourceVersion = obj.metadata.resourceVersion;
  const head = sharedHead(match[0]);
  if (typeof stored === 'string') {
    kept.set(obj, { head, resourceVersion, json: stored, rest: 0 });
    return;
  }
  // latin1 maps bytes one to one: the prefix's length in characters is its length in bytes.
  const rest = stored.subarray(match[0].length);
  kept.set(obj, { head, resourceVersion, ...itemBytes(resourceVersion, rest) });
}

/**
 * A stored value (as encodeObject writes it) as its list-item bytes, undecoded; undefined in another layout.
 */
export function storedItem(
  stored: Buffer,
  resourceVersion: string,
): { apiVersion: string; kind: string; item: Buffer; keep: (obj: ApiObject) => void } | undefined {
  const prefix = storedPrefixOf(stored);
  if (prefix === undefined) return undefined;
  const { match, head } = prefix;
  const prefixLength = match[0].length;
  const { item, rest } = itemBytes(resourceVersion, stored.subarray(prefixLength));
  const keep = (obj: ApiObject): void => {
    allowMessageReuse(obj);
    kept.set(obj, { head, resourceVersion, item, rest });
  };
  return { apiVersion: match[1] ?? '', kind: match[2] ?? '', item, keep };
}

/** A stored prefix matched (STORED_PREFIX), its shared head and its `apiVersion/kind`. */
interface StoredPrefix {
  match: RegExpExecArray;
  head: string;
  type: string;
}

/**
 * The `apiVersion/kind` a stored value (as encodeObject writes it) starts with, read from its prefix's bytes only
 * (nothing else checked or decoded); undefined in another layout.
 */
export function storedType(stored: Buffer): string | undefined {
  return storedPrefixOf(stored)?.type;
}

/** The last stored prefix matched, and its bytes: a fill's values all start alike. */
let lastPrefix: (StoredPrefix & { bytes: Buffer }) | undefined;

/** STORED_PREFIX's match in `stored`; the last match again when `stored` starts with its bytes (no string made). */
function storedPrefixOf(stored: Buffer): StoredPrefix | undefined {
  const last = lastPrefix;
  if (last !== undefined && startsWith(stored, last.bytes)) return last;
  const match = STORED_PREFIX.exec(stored.toString('latin1', 0, PREFIX_SCAN_BYTES));
  if (match === null) return undefined;
  const type = `${match[1] ?? ''}/${match[2] ?? ''}`;
  lastPrefix = { match, head: sharedHead(match[0]), type, bytes: Buffer.from(match[0], 'latin1') };
  return lastPrefix;
}

function startsWith(buf: Buffer, prefix: Buffer): boolean {
  const n = prefix.length;
  if (buf.length < n) return false;
  for (let i = 0; i < n; i++) if (buf[i] !== prefix[i]) return false;
  return true;
}

/** `to` (the same object as `from`, in another form) served from `from`'s kept bytes. */
export function shareServedJson(from: ApiObject, to: ApiObject): void {
  const k = kept.get(from);
  allowMessageReuse(to);
  if (k !== undefined) kept.set(to, { ...k });
}

/** `{"metadata":{` + the resourceVersion member + `rest` in one buffer of its own (not a slice of a larger one). */
function itemBytes(resourceVersion: string | undefined, rest: Buffer): { item: Buffer; rest: number } {
  const member = versionMember(resourceVersion, rest[0]);
  const start = ITEM_START.length + Buffer.byteLength(member);
  const item = Buffer.allocUnsafeSlow(start + rest.length);
  ITEM_START.copy(item, 0);
  item.write(member, ITEM_START.length);
  rest.copy(item, start);
  return { item, rest: start };
}

/** The resourceVersion member opening an item's metadata whose next byte is `next` (`}` when it is empty). */
function versionMember(resourceVersion: string | undefined, next: number | undefined): string {
  return resourceVersion === undefined
    ? ''
    : `"resourceVersion":${JSON.stringify(resourceVersion)}${next === 0x7d ? '' : ','}`;
}

/** The list-item bytes of a kept encoding, made from the stored string on first use (which is then dropped). */
function keptItem(k: Kept, resourceVersion: string | undefined): Buffer {
  if (k.item === undefined || k.resourceVersion !== resourceVersion) {
    const rest =
      k.item !== undefined
        ? k.item.subarray(k.rest)
        : Buffer.from((k.json as string).slice(k.head.length + METADATA_OPEN.length));
    Object.assign(k, itemBytes(resourceVersion, rest), { resourceVersion });
    delete k.json;
  }
  return k.item as Buffer;
}

/** `obj` with another resourceVersion, keeping its stored bytes for serving (DELETED events carry the delete's revision). */
export function withResourceVersion(obj: ApiObject, resourceVersion: string): ApiObject {
  const copy: ApiObject = { ...obj, metadata: { ...obj.metadata, resourceVersion } };
  shareServedJson(obj, copy);
  return copy;
}

/**
 * The JSON of `obj` as served, or undefined when its stored bytes are unknown. `withTypeMeta` false drops
 * apiVersion and kind (list items, as Kubernetes writes them). Valid only while `obj` is unchanged since decode.
 */
export function servedJson(obj: ApiObject, withTypeMeta = true): string | undefined {
  const k = kept.get(obj);
  if (k === undefined) return undefined;
  const resourceVersion = obj.metadata.resourceVersion;
  if (k.json !== undefined) return spliceResourceVersion(k.json, resourceVersion, withTypeMeta);
  const item = keptItem(k, resourceVersion);
  if (!withTypeMeta) return item.toString('utf8');
  const recent = recentlyServed.get(obj);
  if (recent !== undefined) return recent;
  const served = k.head + item.toString('utf8', 1);
  recentlyServed.set(obj, served);
  if (recentlyServed.size > RECENTLY_SERVED) recentlyServed.delete(recentlyServed.keys().next().value as ApiObject);
  return served;
}

/** Each type's head (`{"apiVersion":…,"kind":…,`) as UTF-8, made once. */
const headBytes = new Map<string, Buffer>();

/**
 * The JSON of `obj` as servedJson gives it, as UTF-8 parts to write one after the other: its type's head and its
 * kept list-item bytes after their `{`, so no string is made and encoded again; undefined when its bytes are unknown.
 */
export function servedJsonParts(obj: ApiObject): [Buffer, Buffer] | undefined {
  const k = kept.get(obj);
  if (k === undefined) return undefined;
  const item = keptItem(k, obj.metadata.resourceVersion);
  let head = headBytes.get(k.head);
  if (head === undefined) {
    head = Buffer.from(k.head);
    if (headBytes.size < 10_000) headBytes.set(k.head, head);
  }
  return [head, item.subarray(1)];
}

/** The last objects served with apiVersion and kind (first in, first out): repeated GETs of one object reuse the string. */
const RECENTLY_SERVED = 1024;
const recentlyServed = new Map<ApiObject, string>();

/** A list item's served JSON as UTF-8 bytes (the kept encoding itself), so a list body is one Buffer.concat. */
export function servedItemBytes(obj: ApiObject): Buffer | undefined {
  const k = kept.get(obj);
  return k === undefined ? undefined : keptItem(k, obj.metadata.resourceVersion);
}

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
