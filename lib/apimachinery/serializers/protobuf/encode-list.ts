// A list body assembled from its items' message bytes: envelope head, ListMeta, then every item as a length-delimited
// `items` field, copied once into one Buffer (items decoded from storage keep their bytes, see reused-messages.ts).
import { encodeWith } from './scratch-writer';
import { writeMessage } from './encode-message';
import { ENVELOPE_TAIL, envelopeHead, writeEnvelope } from './envelope';
import type { FieldPlan, MessagePlan } from './message-plan';
import { messageBytes } from './reused-messages';
import { planOf } from './response-plans';

interface ListLayout {
  items: FieldPlan & { message: MessagePlan };
  metadata: FieldPlan & { message: MessagePlan };
}

function isMessageField(field: FieldPlan | undefined, jsonName: string, shape: FieldPlan['shape']): field is FieldPlan & { message: MessagePlan } {
  return field !== undefined && field.jsonName === jsonName && field.shape === shape && field.message !== null && field.message.special === null;
}

/** The two fields of every k8s list message, `metadata` (ListMeta, 1) before `items` (2) on the wire. */
function layoutOf(plan: MessagePlan): ListLayout | undefined {
  // Plans hold fields in descending number order.
  const [items, metadata] = plan.fields;
  if (plan.fields.length !== 2 || !isMessageField(items, 'items', 'repeated') || !isMessageField(metadata, 'metadata', 'single')) return undefined;
  return { items, metadata };
}

/** Bytes of a varint below 2^32. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value >>>= 7;
    size++;
  }
  return size;
}

/** Writes `tag`, the length of `bytes` and `bytes` at `pos`; returns the position after them. */
function putField(out: Buffer, pos: number, tag: Uint8Array, bytes: Buffer): number {
  out.set(tag, pos);
  pos += tag.length;
  let n = bytes.length;
  while (n >= 0x80) {
    out[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[pos++] = n;
  return pos + bytes.copy(out, pos);
}

function fieldSize(tag: Uint8Array, bytes: Uint8Array): number {
  return tag.length + varintSize(bytes.length) + bytes.length;
}

/**
 * The protobuf body of list kind `kind` with `listMeta` and `items` (objects in their JSON form; their apiVersion and
 * kind are not part of the item message). Byte for byte what encoding the whole list at once writes.
 */
export function encodeProtobufList(apiVersion: string, kind: string, listMeta: object, items: readonly object[]): Buffer {
  const plan = planOf(apiVersion, kind);
  const layout = layoutOf(plan);
  if (layout === undefined) return encodeWith((w) => writeEnvelope(w, apiVersion, kind, () => writeMessage(w, plan, { metadata: listMeta, items })));
  const meta = encodeWith((w) => writeMessage(w, layout.metadata.message, listMeta));
  const encodedItems = items.map((item) => messageBytes(layout.items.message, item));
  let rawLength = fieldSize(layout.metadata.tag, meta);
  for (const item of encodedItems) rawLength += fieldSize(layout.items.tag, item);
  const head = envelopeHead(apiVersion, kind, rawLength);
  const out = Buffer.allocUnsafe(head.length + rawLength + ENVELOPE_TAIL.length);
  out.set(head, 0);
  let pos = putField(out, head.length, layout.metadata.tag, meta);
  for (const item of encodedItems) pos = putField(out, pos, layout.items.tag, item);
  out.set(ENVELOPE_TAIL, pos);
  return out;
}
