// A watch event line as parts to write rather than bytes to build: an object the watch cache keeps list-item bytes
// for becomes a head shared by every event of its type and kind, those bytes after their `{`, and a shared end.
// Writing a large initial state this way copies none of it, however many watchers sync at once.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { WatchEventType } from '../../apimachinery/watch/transitions';
import { servedItemBytes } from '../../apimachinery/serializers/served-json';

const LINE_END = Buffer.from('}\n');
const heads = new Map<string, Buffer>();
/** Heads are per event type and served kind: a bound only against unbounded custom kinds. */
const MAX_HEADS = 10_000;

/** `{"type":T,"object":{"apiVersion":A,"kind":K,` */
function eventHead(type: WatchEventType, apiVersion: string, kind: string): Buffer {
  const key = `${type}\n${apiVersion}\n${kind}`;
  let head = heads.get(key);
  if (head === undefined) {
    head = Buffer.from(
      `{"type":"${type}","object":{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},`,
    );
    if (heads.size < MAX_HEADS) heads.set(key, head);
  }
  return head;
}

/**
 * `{"type":T,"object":<obj as served>}\n` as three parts, the object's own bytes not copied; undefined when the
 * object's stored bytes are not kept (then it is encoded). `obj` must be the decoded object itself (as served).
 */
export function eventLineParts(type: WatchEventType, obj: ApiObject): Buffer[] | undefined {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const item = servedItemBytes(obj);
  if (item === undefined) return undefined;
  return [eventHead(type, apiVersion, kind), item.subarray(1), LINE_END];
}
