// A list body assembled from its items' message bytes: envelope head, ListMeta, then every item as a length-delimited
// `items` field, as parts written one after another (items decoded from storage keep their bytes, see reused-messages.ts).
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

function isMessageField(
  field: FieldPlan | undefined,
  jsonName: string,
  shape: FieldPlan['shape'],
): field is FieldPlan & { message: MessagePlan } {
  return (
    field !== undefined &&
    field.jsonName === jsonName &&
    field.shape === shape &&
    field.message !== null &&
    field.message.special === null
  );
}

/** The two fields of every k8s list message, `metadata` (ListMeta, 1) before `items` (2) on the wire. */
function layoutOf(plan: MessagePlan): ListLayout | undefined {
  // Plans hold fields in descending number order.
  const [items, metadata] = plan.fields;
  if (
    plan.fields.length !== 2 ||
    !isMessageField(items, 'items', 'repeated') ||
    !isMessageField(metadata, 'metadata', 'single')
  )
    return undefined;
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

/** `tag` and the varint length of a `length`-byte field. */
function fieldPrefix(tag: Uint8Array, length: number): Buffer {
  const out = Buffer.allocUnsafe(tag.length + varintSize(length));
  out.set(tag, 0);
  let pos = tag.length;
  let n = length;
  while (n >= 0x80) {
    out[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[pos] = n;
  return out;
}

/**
 * The protobuf body of list kind `kind` with `listMeta` and `items` (objects in their JSON form; their apiVersion and
 * kind are not part of the item message). Byte for byte what encoding the whole list at once writes.
 */
export function encodeProtobufList(
  apiVersion: string,
  kind: string,
  listMeta: object,
  items: readonly object[],
): Buffer {
  return Buffer.concat(encodeProtobufListParts(apiVersion, kind, listMeta, items));
}

/**
 * The same body as parts to write one after another (envelope head, ListMeta, each item's field prefix and its
 * kept message bytes, envelope tail): never copied into one buffer. `items` may build each item as it is reached
 * (a PartialObjectMetadataList): only its message bytes outlive it.
 */
export function encodeProtobufListParts(
  apiVersion: string,
  kind: string,
  listMeta: object,
  items: Iterable<object>,
): Buffer[] {
  const plan = planOf(apiVersion, kind);
  const layout = layoutOf(plan);
  if (layout === undefined) {
    const all = [...items];
    return [
      encodeWith((w) =>
        writeEnvelope(w, apiVersion, kind, () => writeMessage(w, plan, { metadata: listMeta, items: all })),
      ),
    ];
  }
  const meta = encodeWith((w) => writeMessage(w, layout.metadata.message, listMeta));
  const metaPrefix = fieldPrefix(layout.metadata.tag, meta.length);
  const parts: Buffer[] = [Buffer.alloc(0), metaPrefix, meta];
  let rawLength = metaPrefix.length + meta.length;
  for (const item of items) {
    const bytes = messageBytes(layout.items.message, item);
    const prefix = fieldPrefix(layout.items.tag, bytes.length);
    rawLength += prefix.length + bytes.length;
    parts.push(prefix, bytes);
  }
  parts[0] = Buffer.from(envelopeHead(apiVersion, kind, rawLength));
  parts.push(Buffer.from(ENVELOPE_TAIL));
  return parts;
}
