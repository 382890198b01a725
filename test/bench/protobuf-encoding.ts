// In-process encoding cost of one response body, each ending in the bytes written to the socket: JSON.stringify vs
// the protobuf encoder (both from the parsed object), and the server's fast paths that reuse kept bytes instead
// (stored JSON with the resourceVersion spliced in; protobuf item messages kept per object).
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { encodeProtobufList, encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';
import { rememberStoredJson, servedJson } from '../../lib/apimachinery/serializers/served-json';

export interface EncodingResult {
  /** Microseconds per encode: the fastest batch (the machine is shared; slower batches measure interference). */
  jsonTextUs: number;
  jsonStringifyUs: number;
  storedJsonUs: number;
  protobufUs: number;
  keptProtobufUs: number;
  jsonBytes: number;
  protobufBytes: number;
}

const WARMUP_BATCHES = 3;
const BATCHES = 15;

/** µs per call of each op: batches of `reps` calls, the ops interleaved so they share the machine's load; the fastest batch counts. */
function fastestMicros(reps: number, ops: ReadonlyArray<() => unknown>): number[] {
  const best = ops.map(() => Number.POSITIVE_INFINITY);
  for (let batch = 0; batch < WARMUP_BATCHES + BATCHES; batch++) {
    ops.forEach((op, k) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < reps; i++) op();
      const us = Number(process.hrtime.bigint() - start) / 1000 / reps;
      if (batch >= WARMUP_BATCHES) best[k] = Math.min(best[k] as number, us);
    });
  }
  return best;
}

interface Encoders {
  stringify: () => string;
  stored: () => string;
  protobuf: () => Buffer;
  kept: () => Buffer;
}

function result(reps: number, e: Encoders): EncodingResult {
  const protobufBytes = e.protobuf();
  if (!e.kept().equals(protobufBytes)) throw new Error('kept protobuf bytes differ from a fresh encoding');
  // JSON text still has to become UTF-8 bytes for the socket (the server's Buffer.byteLength + res.end do that).
  const ops = [e.stringify, () => Buffer.from(e.stringify()), () => Buffer.from(e.stored()), e.protobuf, e.kept];
  const [
    jsonTextUs = Number.NaN,
    jsonStringifyUs = Number.NaN,
    storedJsonUs = Number.NaN,
    protobufUs = Number.NaN,
    keptProtobufUs = Number.NaN,
  ] = fastestMicros(reps, ops);
  return {
    jsonTextUs,
    jsonStringifyUs,
    storedJsonUs,
    protobufUs,
    keptProtobufUs,
    jsonBytes: Buffer.byteLength(`${e.stringify()}\n`),
    protobufBytes: protobufBytes.length,
  };
}

/** Objects as the storage layer hands them to handlers: parsed, with their stored JSON (no resourceVersion) remembered. */
export function asStoredObjects(items: ApiObject[], apiVersion: string, kind: string): ApiObject[] {
  return items.map((item) => {
    const { resourceVersion, ...metadata } = item.metadata;
    const stored = JSON.stringify({ apiVersion, kind, ...item, metadata });
    const obj = JSON.parse(stored) as ApiObject;
    if (resourceVersion !== undefined) obj.metadata.resourceVersion = resourceVersion;
    rememberStoredJson(obj, stored);
    return obj;
  });
}

/** A list response as list.ts builds it, and the text its JSON fast path writes. */
function storedListJson(list: { kind: string; apiVersion: string; metadata: unknown }, items: ApiObject[]): string {
  const head = JSON.stringify({ kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata });
  return `${head.slice(0, -1)},"items":[${items.map((o) => servedJson(o, false) ?? '').join(',')}]}`;
}

function encoded(value: unknown): Buffer {
  const body = encodeProtobufResponse(value);
  if (body === undefined) throw new Error('not encodable');
  return body;
}

/** `items` from asStoredObjects; the fresh protobuf encoding starts from copies, which have no kept bytes. */
export function measureListEncoding(
  list: { kind: string; apiVersion: string; metadata: object },
  items: ApiObject[],
  reps: number,
): EncodingResult {
  const body = { ...list, items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) };
  return result(reps, {
    stringify: () => JSON.stringify(body),
    stored: () => storedListJson(list, items),
    protobuf: () => encoded(body),
    kept: () => encodeProtobufList(list.apiVersion, list.kind, list.metadata, items),
  });
}

/** `obj` from asStoredObjects; the fresh protobuf encoding starts from a copy, which has no kept bytes. */
export function measureObjectEncoding(obj: ApiObject, reps: number): EncodingResult {
  const copy = { ...obj };
  return result(reps, {
    stringify: () => JSON.stringify(obj),
    stored: () => servedJson(obj) ?? '',
    protobuf: () => encoded(copy),
    kept: () => encoded(obj),
  });
}

/** The list with every item's managedFields left out: the part of each object the two formats encode differently. */
export function withoutManagedFields<T extends { items: ApiObject[] }>(list: T): T {
  return {
    ...list,
    items: list.items.map((item) => {
      const { managedFields: _left, ...metadata } = item.metadata;
      return { ...item, metadata };
    }),
  };
}

const f1 = (n: number): string => n.toFixed(n < 10 ? 3 : 1);

/** The targets on cold encoding (JSON.stringify → bytes vs the protobuf encoder, both from the parsed object). */
export function encodingTargetLines(
  rows: Array<[string, EncodingResult]>,
  speedTarget: number,
  sizeTarget: number,
): string[] {
  return rows.map(([name, r]) => {
    const speed = r.jsonStringifyUs / r.protobufUs;
    const smaller = 1 - r.protobufBytes / r.jsonBytes;
    return `- ${name}: encoding JSON ÷ protobuf ${speed.toFixed(2)}× (target ≥ ${speedTarget}×: **${speed >= speedTarget ? 'PASS' : 'FAIL'}**), protobuf ${(smaller * 100).toFixed(1)}% smaller (target ≥ ${sizeTarget * 100}%: **${smaller >= sizeTarget ? 'PASS' : 'FAIL'}**)`;
  });
}

export function encodingTable(rows: Array<[string, EncodingResult]>): string[] {
  return [
    '| body | JSON.stringify (text) µs | JSON.stringify → bytes µs | stored-bytes JSON → bytes µs | protobuf encode µs | kept protobuf bytes → body µs | JSON → bytes ÷ protobuf encode | JSON bytes | protobuf bytes | smaller by |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, r]) =>
        `| ${name} | ${f1(r.jsonTextUs)} | ${f1(r.jsonStringifyUs)} | ${f1(r.storedJsonUs)} | ${f1(r.protobufUs)} | ${f1(r.keptProtobufUs)} | ${(r.jsonStringifyUs / r.protobufUs).toFixed(2)}× | ${r.jsonBytes} | ${r.protobufBytes} | ${((1 - r.protobufBytes / r.jsonBytes) * 100).toFixed(1)}% |`,
    ),
  ];
}
