// Compact objects for the watch cache: an object held as its list-item JSON bytes (kept once, as served-json.ts
// serves them) plus a decoded `metadata` without its bulky members; metadata from `annotations` or `managedFields` on
// and every top-level member but apiVersion, kind and metadata are accessor properties that decode their own bytes when read.
// To its readers a compact object is the decoded object: the same keys in the same order, the same values
// (JSON.stringify, spread, structuredClone and property reads see no difference); an assignment turns the member
// into a plain one. The decoded members of the objects read in the current event-loop turn are kept until it ends
// (so repeated reads of one object decode once and see the same value), then dropped.
import type { ApiObject, ObjectMeta } from '../meta/types';
import { membersAfter, objectMembers } from './json-members';
import type { Member } from './json-members';
import { servedItemBytes, shareServedJson, storedItem } from './served-json';

/**
 * Where an object's lazy members are: the bytes, their keys and, per key, [start, end) of its value in the bytes, as
 * one array `[item, keys, start0, end0, start1, end1, …]` (one heap object fewer per cached object than a record
 * holding an array of spans: every cached object has two of them, and a full GC marks each).
 */
type Lazy = [item: Buffer, keys: readonly string[], ...spans: number[]];
const SPANS_AT = 2;

const LAZY = Symbol('compact object');
/**
 * Metadata members decoded on demand, with every member after them (in Go's order: annotations, ownerReferences,
 * finalizers, managedFields); the members before them are what keys, selectors and versions read.
 */
const LAZY_METADATA = new Set(['managedFields', 'annotations']);
/** `{"metadata":` starts every list item: metadata's own `{` is here. */
const ITEM_HEAD = '{"metadata":';
const METADATA_AT = ITEM_HEAD.length;
const ITEM_HEAD_BYTES = Buffer.from(ITEM_HEAD, 'latin1');

/**
 * The objects whose lazy members were read last, with the values decoded: at most RECENTLY_DECODED objects (first
 * in, first out), and only until the current event-loop turn is over. Repeated reads of one object (a Table row,
 * a field selector then the row) decode once and see the same value, and the values die young: kept for thousands
 * of objects, the values of a large LIST written as pretty JSON, YAML or a Table outlived the young generation and
 * piled up in the old one (a peak RSS growth about the size of the whole response).
 */
const RECENTLY_DECODED = 16;
const decoded = new Map<Lazy, unknown[]>();
let emptying = false;

function emptyDecoded(): void {
  decoded.clear();
  emptying = false;
}

function valueOf(lazy: Lazy, key: string): unknown {
  const index = lazy[1].indexOf(key);
  let values = decoded.get(lazy);
  if (values === undefined) {
    values = [];
    decoded.set(lazy, values);
    if (decoded.size > RECENTLY_DECODED) decoded.delete(decoded.keys().next().value as Lazy);
    if (!emptying) {
      emptying = true;
      setImmediate(emptyDecoded).unref();
    }
  }
  if (!(index in values)) {
    const at = SPANS_AT + 2 * index;
    values[index] = JSON.parse(lazy[0].toString('utf8', lazy[at] as number, lazy[at + 1] as number));
  }
  return values[index];
}

/** One getter/setter pair per key, shared by every object (so objects of one shape share their hidden class). */
const accessors = new Map<string, PropertyDescriptor>();

function accessorFor(key: string): PropertyDescriptor {
  let descriptor = accessors.get(key);
  if (descriptor === undefined) {
    descriptor = {
      get(this: { [LAZY]?: Lazy }): unknown {
        const lazy = this[LAZY];
        return lazy === undefined ? undefined : valueOf(lazy, key);
      },
      set(this: object, value: unknown): void {
        Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    };
    if (accessors.size < 10_000) accessors.set(key, descriptor);
  }
  return descriptor;
}

/** Lists of lazy keys are shared between objects of one shape. */
const keyLists = new Map<string, readonly string[]>();
/** The lists used last (objects of one kind repeat them): found by comparing keys, without joining them into an id. */
const recentKeyLists: (readonly string[])[] = [];
const RECENT_KEY_LISTS = 8;

/** Whether `keys` are the keys of `members` from index `from` on. */
function sameKeys(keys: readonly string[], members: Member[], from: number): boolean {
  if (keys.length !== members.length - from) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== members[from + i]?.key) return false;
  return true;
}

function sharedKeys(members: Member[], from: number): readonly string[] {
  for (const recent of recentKeyLists) if (sameKeys(recent, members, from)) return recent;
  const keys = members.slice(from).map((m) => m.key);
  const id = keys.join('\u0000');
  let shared = keyLists.get(id);
  if (shared === undefined) {
    shared = keys;
    if (keyLists.size < 10_000) keyLists.set(id, keys);
  }
  recentKeyLists.unshift(shared);
  if (recentKeyLists.length > RECENT_KEY_LISTS) recentKeyLists.pop();
  return shared;
}

/** The descriptor of a LAZY property (non-enumerable, read-only), its value set per use: no object per definition. */
const lazyDescriptor: { value: Lazy | undefined } = { value: undefined };

/**
 * Adds `members` from index `from` on to `target` in their order, as accessors decoding their bytes in `item` when
 * read. (One Object.defineProperty per key: Object.defineProperties with a shared descriptor map was slower per object.)
 */
function addLazy(target: object, item: Buffer, members: Member[], from: number): void {
  const n = members.length;
  if (from >= n) return;
  // Allocated at its final length: no spare capacity kept for as long as the object is cached.
  const lazy = new Array<unknown>(SPANS_AT + 2 * (n - from)) as Lazy;
  lazy[0] = item;
  lazy[1] = sharedKeys(members, from);
  for (let i = from, j = SPANS_AT; i < n; i++, j += 2) {
    const m = members[i] as Member;
    lazy[j] = m.valueStart;
    lazy[j + 1] = m.valueEnd;
  }
  lazyDescriptor.value = lazy;
  Object.defineProperty(target, LAZY, lazyDescriptor);
  lazyDescriptor.value = undefined;
  for (let i = from; i < n; i++) {
    const key = (members[i] as Member).key;
    Object.defineProperty(target, key, accessorFor(key));
  }
}

/**
 * The metadata of list item `item`, its members in the order of a decoded object: those before the first lazy one
 * decoded (one JSON.parse), the rest lazy, then the resourceVersion (the list item has it first; decodeObject adds
 * it last). `resourceVersion`: the version the item was made with, when known (then its member is not parsed).
 */
function metadataOf(item: Buffer, members: Member[], resourceVersion: string | undefined): Record<string, unknown> {
  const version = members[0]?.key === 'resourceVersion' ? members[0] : undefined;
  const from = version === undefined ? 0 : 1;
  let firstLazy = from;
  while (firstLazy < members.length && !LAZY_METADATA.has((members[firstLazy] as Member).key)) firstLazy++;
  const first = members[from];
  const last = members[firstLazy - 1];
  const metadata =
    first === undefined || last === undefined || firstLazy === from
      ? {}
      : (JSON.parse(`{${item.toString('utf8', first.keyStart, last.valueEnd)}}`) as Record<string, unknown>);
  addLazy(metadata, item, members, firstLazy);
  if (version !== undefined)
    metadata['resourceVersion'] =
      resourceVersion ?? JSON.parse(item.toString('utf8', version.valueStart, version.valueEnd));
  return metadata;
}

/** The compact object of list-item bytes `item` (`{"metadata":{…},…}`), or undefined for bytes in another layout. */
function fromItem(
  apiVersion: string,
  kind: string,
  item: Buffer,
  resourceVersion: string | undefined,
): ApiObject | undefined {
  for (let i = 0; i < METADATA_AT; i++) if (item[i] !== ITEM_HEAD_BYTES[i]) return undefined;
  const metaMembers = objectMembers(item, METADATA_AT);
  if (metaMembers === undefined) return undefined;
  // metadata's members were scanned: the top-level scan continues after its `}`.
  const metaEnd = (metaMembers[metaMembers.length - 1]?.valueEnd ?? METADATA_AT + 1) + 1;
  const metadata = { key: 'metadata', keyStart: 1, valueStart: METADATA_AT, valueEnd: metaEnd };
  const top = membersAfter(item, metaEnd, [metadata]);
  if (top === undefined || top.some((m) => m.key === 'apiVersion' || m.key === 'kind')) return undefined;
  const obj = { apiVersion, kind, metadata: metadataOf(item, metaMembers, resourceVersion) };
  addLazy(obj, item, top, 1);
  return obj as unknown as ApiObject;
}

/** A stored value (etcd's bytes, as encodeObject writes them) as a compact object; undefined in another layout. */
export function compactFromStored(value: Buffer, resourceVersion: string): ApiObject | undefined {
  const stored = storedItem(value, resourceVersion);
  if (stored === undefined) return undefined;
  // storedItem wrote `resourceVersion` as the item's first metadata member
  const obj = fromItem(stored.apiVersion, stored.kind, stored.item, resourceVersion);
  if (obj !== undefined) stored.keep(obj);
  return obj;
}

/** `obj` (just decoded from storage and unchanged since) as a compact object; `obj` itself without kept bytes. */
export function compactObject(obj: ApiObject): ApiObject {
  if (isCompact(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return obj;
  const item = servedItemBytes(obj);
  if (item === undefined) return obj;
  const compact = fromItem(obj.apiVersion, obj.kind, item, undefined);
  if (compact === undefined || (compact.metadata as ObjectMeta).resourceVersion !== obj.metadata.resourceVersion)
    return obj;
  shareServedJson(obj, compact);
  return compact;
}

function isCompact(obj: ApiObject): boolean {
  return LAZY in obj || (typeof obj.metadata === 'object' && obj.metadata !== null && LAZY in obj.metadata);
}

/**
 * A compact object as a plain object of its own, decoded from its kept bytes: equal to it (the same keys in the same
 * order, the same values) but sharing nothing with it, so what a serializer walks dies with the copy. Serializing
 * many cached objects through the accessors instead kept each one's decoded members reachable from the cache for the
 * rest of the event-loop turn (RECENTLY_DECODED), long enough for the young generation to promote them: a pretty
 * JSON, YAML or Table LIST of 100,000 grew the old space by about the size of its body until the next full GC.
 * Anything but a compact object (whose bytes are kept) is returned as it is.
 */
export function detachedCopy(obj: ApiObject): ApiObject {
  if (!isCompact(obj)) return obj;
  const item = servedItemBytes(obj);
  if (item === undefined) return obj;
  const copy = JSON.parse(item.toString('utf8')) as Record<string, unknown> & { metadata: Record<string, unknown> };
  // The list item has the resourceVersion first in metadata; the compact (like the decoded) object has it last.
  const { resourceVersion, ...metadata } = copy.metadata;
  if (resourceVersion !== undefined) metadata['resourceVersion'] = resourceVersion;
  copy.metadata = metadata;
  return { apiVersion: obj.apiVersion, kind: obj.kind, ...copy } as ApiObject;
}
