// Protobuf responses: an object as prefix + Unknown envelope, and a watch event as one length-prefixed frame.
import { notAcceptable } from '../../errors';
import { isPlainObject } from '../../meta/types';
import { writeEnvelope } from './envelope';
import { writeMessage } from './encode-message';
import { responseMessageNameOf } from './kinds';
import { messagePlan, type MessagePlan } from './message-plan';
import { ReverseWriter } from './reverse-writer';

/** A scratch buffer that grew past this is dropped after use rather than kept for the process' lifetime. */
const MAX_RETAINED_BYTES = 8 * 1024 * 1024;
const WATCH_EVENT_TYPE_TAG = Uint8Array.of(0x0a);
const WATCH_EVENT_OBJECT_TAG = Uint8Array.of(0x12);
const RAW_EXTENSION_RAW_TAG = Uint8Array.of(0x0a);

let scratch = new ReverseWriter();

/** Runs `write` on the reset scratch writer and returns a copy of its bytes (responses outlive the next encode). */
function encodeWith(write: (w: ReverseWriter) => void): Buffer {
  const w = scratch;
  w.reset();
  try {
    write(w);
    return w.finish();
  } finally {
    if (w.length > MAX_RETAINED_BYTES) scratch = new ReverseWriter();
  }
}

/** Plans by apiVersion, then kind (looked up on every response, so no key strings are built). */
const plansByType = new Map<string, Map<string, MessagePlan>>();

/** The plan of `kind` in `apiVersion`; 406 as Kubernetes answers for an object without protobuf marshalling. */
function planOf(apiVersion: string, kind: string): MessagePlan {
  const cached = plansByType.get(apiVersion)?.get(kind);
  if (cached) return cached;
  const name = responseMessageNameOf(apiVersion, kind);
  if (name === undefined) {
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1) || 'v1';
    throw notAcceptable(`object *${version}.${kind} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`);
  }
  const plan = messagePlan(name);
  const byKind = plansByType.get(apiVersion) ?? new Map<string, MessagePlan>();
  plansByType.set(apiVersion, byKind.set(kind, plan));
  return plan;
}

/**
 * The protobuf body of a response object (its own apiVersion/kind name the message and fill the envelope);
 * undefined for values without a kind (version info, path lists), which Kubernetes always writes as JSON.
 */
export function encodeProtobufResponse(value: unknown): Buffer | undefined {
  if (!isPlainObject(value)) return undefined;
  const kind = value['kind'];
  if (typeof kind !== 'string' || kind === '') return undefined;
  const apiVersion = typeof value['apiVersion'] === 'string' ? value['apiVersion'] : '';
  const plan = planOf(apiVersion, kind);
  return encodeWith((w) => writeEnvelope(w, apiVersion, kind, () => writeMessage(w, plan, value)));
}

/**
 * One protobuf watch frame, as kube-apiserver streams `;stream=watch`: 4-byte big-endian length, then a bare
 * (raw-serializer, no prefix or envelope) WatchEvent{type=1, object=2 RawExtension{raw=1}} whose raw bytes are
 * the object in the full prefix + Unknown envelope. `apiVersion`/`kind` are the object's (`v1`/`Status` for ERROR).
 */
export function encodeWatchEventProtobuf(type: string, object: Record<string, unknown>, apiVersion: string, kind: string): Buffer {
  const plan = planOf(apiVersion, kind);
  return encodeWith((w) => {
    const objectStart = w.length;
    writeEnvelope(w, apiVersion, kind, () => writeMessage(w, plan, object));
    w.uint32(w.length - objectStart);
    w.tag(RAW_EXTENSION_RAW_TAG);
    w.uint32(w.length - objectStart);
    w.tag(WATCH_EVENT_OBJECT_TAG);
    w.string(type);
    w.tag(WATCH_EVENT_TYPE_TAG);
    w.uint32BigEndian(w.length);
  });
}
