// GET on a collection: a list (chunked with limit/continue), or a Table of it.
import type { ApiObject, ListMeta } from '../../apimachinery/meta/types';
import type { ListOutcome } from '../../registry/generic/list';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { isProtobuf, negotiateResponse } from '../negotiation';
import { parseListParams } from './list-options';
import { utf8Batches, writeGeneratedBody, writeStreamedBody } from './streamed-body';
import {
  decodeStoredValue,
  servedItemBytes,
  storedItemParts,
  storedPrefix,
} from '../../apimachinery/serializers/served-json';
import { parseIncludeObject, tableDocument, type IncludeObject } from '../table';
import { partialListDocument } from '../partial-object-metadata';
import {
  jsonDocumentChunks,
  mapped,
  wholeDocument,
  type ListDocument,
} from '../../apimachinery/serializers/list-document';
import { detachedCopy } from '../../apimachinery/serializers/compact-object';
import { jsonToYamlChunks } from '../../apimachinery/json/json-to-yaml';
import { encodeProtobufListParts } from '../../apimachinery/serializers/protobuf';
import { apiVersionOf } from '../../apimachinery/schema/group-version';
import { conversionsOf } from '../../apis/conversions';

/** List items are written without kind/apiVersion, as Kubernetes does. */
function listItem(obj: ApiObject): ApiObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest as ApiObject; // only TypeMeta removed
}

export function listMetaOf(outcome: ListOutcome): ListMeta {
  const meta: ListMeta = { resourceVersion: outcome.resourceVersion };
  if (outcome.continue !== undefined) meta.continue = outcome.continue;
  if (outcome.remainingItemCount !== undefined) meta.remainingItemCount = outcome.remainingItemCount;
  return meta;
}

function listApiVersion(r: ApiRequest): string {
  const def = r.served.definition;
  return apiVersionOf(def);
}

export function listBody(r: ApiRequest, outcome: ListOutcome): Record<string, unknown> {
  return wholeDocument(plainListDocument(r, outcome));
}

/**
 * asServed for the many objects of one list: a kind served in one version needs no conversion, so an object
 * already labelled with the served apiVersion and kind is itself (checked without building strings per item).
 */
function servedForm(r: ApiRequest): (obj: ApiObject) => ApiObject {
  const def = r.served.definition;
  if (conversionsOf(def.group, def.kind) !== undefined) return (obj) => asServed(r, obj);
  const apiVersion = apiVersionOf(def);
  return (obj) => (obj.apiVersion === apiVersion && obj.kind === def.kind ? obj : asServed(r, obj));
}

/**
 * The outcome's objects as served: its items, then its stored items decoded as they are reached. The watch cache's
 * objects are given as throw-away copies (detachedCopy), so the values a serializer walks die young.
 */
function* servedObjects(r: ApiRequest, outcome: ListOutcome): Generator<ApiObject> {
  const served = servedForm(r);
  for (const o of outcome.items) yield served(detachedCopy(o));
  for (const item of outcome.raw ?? []) yield served(detachedCopy(r.store.rawItemObject(item)));
}

/** The list body in the negotiated form (a list, a Table, a PartialObjectMetadataList), its elements built as written. */
function listDocument(r: ApiRequest, outcome: ListOutcome, includeObject: IncludeObject): ListDocument {
  const def = r.served.definition;
  const count = outcome.items.length + (outcome.raw?.length ?? 0);
  const objects = servedObjects(r, outcome);
  if (r.negotiated?.table)
    return tableDocument(objects, count, def.strategy.table, listMetaOf(outcome), {
      request: r.negotiated.table,
      includeObject,
      cellsFrom: (o) => toStorage(r, o),
    });
  if (r.negotiated?.partial)
    return partialListDocument(objects, count, listMetaOf(outcome), r.negotiated.partial, def.group, def.listKind);
  return plainListDocument(r, outcome);
}

function plainListDocument(r: ApiRequest, outcome: ListOutcome): ListDocument {
  return {
    envelope: {
      kind: r.served.definition.listKind,
      apiVersion: listApiVersion(r),
      metadata: listMetaOf(outcome),
      items: [],
    },
    field: 'items',
    count: outcome.items.length + (outcome.raw?.length ?? 0),
    elements: mapped(servedObjects(r, outcome), listItem),
  };
}

export async function handleList(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  const includeObject = r.negotiated.table ? parseIncludeObject(r.query.get('includeObject')) : 'Metadata';
  const params = parseListParams(r.query, {
    watch: false,
    listChunking: r.features.listChunking,
    selectors: r.served.selectors,
    watchList: r.features.watchList !== false,
  });
  const converted = r.negotiated.table !== undefined || r.negotiated.partial !== undefined;
  const plainJson = !converted && r.negotiated.mediaType === 'application/json' && !r.pretty;
  const protobuf = isProtobuf(r.negotiated.mediaType);
  // Every form is written item by item, so stored items can stay undecoded until they are written.
  const outcome = await r.store.list(requestNamespace(r), params, true);
  const headers = { 'Content-Type': r.negotiated.mediaType };
  if (plainJson || (protobuf && !converted)) {
    // Written item by item from the items' kept bytes: never joined into one body.
    const parts = plainJson ? listJsonParts(r, outcome) : listProtobufParts(r, outcome);
    await writeStreamedBody(r.res, 200, headers, parts);
    return;
  }
  const doc = listDocument(r, outcome, includeObject);
  if (protobuf) {
    // PartialObjectMetadataList: each item built and encoded in turn, only its message bytes kept (their sizes make
    // the envelope's head, so every item is encoded before the first write).
    const { kind, apiVersion, metadata } = doc.envelope as { kind: string; apiVersion: string; metadata: ListMeta };
    await writeStreamedBody(
      r.res,
      200,
      headers,
      encodeProtobufListParts(apiVersion, kind, metadata, doc.elements as Iterable<object>),
    );
    return;
  }
  // Pretty JSON, YAML, Tables and partial lists: serialized while written, paced by the socket.
  const text =
    r.negotiated.mediaType === 'application/yaml' ? jsonToYamlChunks(doc) : jsonDocumentChunks(doc, r.pretty);
  await writeGeneratedBody(r.res, 200, headers, utf8Batches(text));
}

const COMMA = Buffer.from(',');
const LIST_END = Buffer.from(']}\n');

/** The list as JSON parts, reusing each item's served bytes (serialized once, never copied into one body). */
export function listJsonParts(r: ApiRequest, outcome: ListOutcome): Buffer[] {
  const { items: _items, ...envelope } = listBody(r, { ...outcome, items: [] });
  const head = JSON.stringify(envelope);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"items":[`)];
  const served = servedForm(r);
  outcome.items.forEach((stored, i) => {
    if (i > 0) parts.push(COMMA);
    const o = served(stored);
    parts.push(servedItemBytes(o) ?? Buffer.from(JSON.stringify(listItem(o))));
  });
  const prefix = outcome.raw ? storedPrefix(envelope.apiVersion as string, r.served.definition.kind) : undefined;
  outcome.raw?.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    const stored = storedItemParts(item.value, item.resourceVersion, prefix as Buffer);
    if (stored) parts.push(...stored);
    else
      parts.push(
        Buffer.from(JSON.stringify(listItem(asServed(r, decodeStoredValue(item.value, item.resourceVersion))))),
      );
  });
  parts.push(LIST_END);
  return parts;
}

/**
 * The list in protobuf from each item's message bytes: an item the watch cache holds at the same resourceVersion is
 * served from the cache's object, whose message is encoded once per object version; others are decoded and encoded.
 */
function listProtobufParts(r: ApiRequest, outcome: ListOutcome): Buffer[] {
  const store = r.store;
  const lookUp = !outcome.fromCache && !outcome.cacheConsulted;
  const cachedOrSelf = (o: ApiObject): ApiObject => (lookUp ? store.cachedVersionOf(o) : o);
  const served = servedForm(r);
  const items = outcome.items.map((o) => served(cachedOrSelf(o)));
  outcome.raw?.forEach((item) => items.push(served(store.rawItemObject(item))));
  return encodeProtobufListParts(listApiVersion(r), r.served.definition.listKind, listMetaOf(outcome), items);
}
