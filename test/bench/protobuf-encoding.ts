// In-process encoding cost of one response body, each ending in the bytes written to the socket: JSON.stringify vs
// the protobuf encoder (both from the parsed object), and the server's JSON path that splices stored bytes instead.
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';
import { rememberStoredJson, servedJson } from '../../lib/storage/stored-json';

export interface EncodingResult {
  /** Microseconds per encode: the fastest batch (the machine is shared; slower batches measure interference). */
  jsonTextUs: number;
  jsonStringifyUs: number;
  storedJsonUs: number;
  protobufUs: number;
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

function result(reps: number, stringify: () => string, stored: () => string, protobuf: () => Buffer): EncodingResult {
  // JSON text still has to become UTF-8 bytes for the socket (the server's Buffer.byteLength + res.end do that).
  const ops = [stringify, () => Buffer.from(stringify()), () => Buffer.from(stored()), protobuf];
  const [jsonTextUs = Number.NaN, jsonStringifyUs = Number.NaN, storedJsonUs = Number.NaN, protobufUs = Number.NaN] = fastestMicros(reps, ops);
  return { jsonTextUs, jsonStringifyUs, storedJsonUs, protobufUs, jsonBytes: Buffer.byteLength(`${stringify()}\n`), protobufBytes: protobuf().length };
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

const noBody = (): Buffer => Buffer.alloc(0);

export function measureListEncoding(list: { kind: string; apiVersion: string; metadata: unknown }, items: ApiObject[], reps: number): EncodingResult {
  const body = { ...list, items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) };
  return result(reps, () => JSON.stringify(body), () => storedListJson(list, items), () => encodeProtobufResponse(body) ?? noBody());
}

export function measureObjectEncoding(obj: ApiObject, reps: number): EncodingResult {
  return result(reps, () => JSON.stringify(obj), () => servedJson(obj) ?? '', () => encodeProtobufResponse(obj) ?? noBody());
}
