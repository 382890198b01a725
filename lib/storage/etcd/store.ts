// EtcdStorage: Storage on etcd v3. Revisions are resourceVersions; transactions give optimistic concurrency.
import type { Etcd3, IKeyValue, IRangeRequest } from 'etcd3';
import type { ApiObject } from '../../apimachinery/meta/types';
import type {
  ChangeSink,
  RawItem,
  DeleteCheck,
  PutOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Storage,
  UpdateFunc,
  WatchHandle,
  WatchSink,
} from '../storage';
import { ReadsFromStorage } from '../reads-from-storage';
import { watchPrefix } from './watcher';
import { watchChanges } from './change-watcher';
import { watchProgressOf } from './watch-progress';
import { GetBatcher } from './get-batcher';
import { StorageError } from '../storage-error';
import { decodeObject, encodeObject, storedForm, withStoredJson } from './codec';
import { etcdCall, etcdWrite, toStorageError, unknownOutcome, type EtcdFailureClass } from './etcd-errors';
import { settleCreate, settleSwap, type Settled } from './write-outcome';
import { timeEtcdCall } from './metrics';
import { keyAfter, prefixRangeEnd } from './key-range';
import { LeaseManager } from './lease-manager';
import { createIfAbsent, currentRevision } from './kv-unary';
import { rangeResponseOf, rawRange, type RawKeyValue, type RawRangeResponse } from './raw-range';

/** With a predicate, read pages of this many keys at first, doubling up to MAX (like kube-apiserver). */
const MIN_PREDICATE_PAGE = 64;
const MAX_PREDICATE_PAGE = 10000;
/** etcd's default --max-txn-ops: values of a keys-only page not known elsewhere are read this many per txn. */
const MAX_TXN_OPS = 128;

/** Reads by resourceVersion come from ReadsFromStorage (etcd itself); the watch cache answers them in CachedStorage. */
export class EtcdStorage extends ReadsFromStorage implements Storage {
  readonly #client: Etcd3;
  readonly #reads: GetBatcher;
  readonly #leases: LeaseManager;

  constructor(client: Etcd3) {
    super();
    this.#client = client;
    this.#reads = new GetBatcher(client);
    this.#leases = new LeaseManager(client);
  }

  /** The lease a put with `options` attaches to (etcd's 0: none). */
  async #leaseFor(key: string, options: PutOptions | undefined): Promise<string | number> {
    const ttl = options?.leaseTtlSeconds;
    return ttl === undefined ? 0 : etcdCall(key, () => this.#leases.leaseFor(ttl), 'create');
  }

  override async get(key: string, options: GetOptions = {}): Promise<ApiObject> {
    if (options.revision === undefined) {
      const latest = await timeEtcdCall('get', key, () => this.#reads.read(key));
      if (!latest) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
      return decodeObject(key, latest.value, String(latest.modRevision));
    }
    const request: IRangeRequest = { key: Buffer.from(key), revision: options.revision };
    const kv = (await etcdCall(key, () => this.#client.kv.range(request), 'get')).kvs[0];
    if (!kv) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return decodeObject(key, kv.value, kv.mod_revision);
  }

  async getJson(key: string): Promise<{ json: string; resourceVersion: string }> {
    const kv = await timeEtcdCall('get', key, () => this.#reads.read(key));
    if (!kv) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return { json: kv.value.toString('utf8'), resourceVersion: String(kv.modRevision) };
  }

  override async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const rangeEnd = prefixRangeEnd(Buffer.from(prefix));
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : 0;
    const items: ApiObject[] = [];
    const known = options.known;
    const raw: RawItem[] | undefined = options.raw && !options.predicate && !known ? [] : undefined;
    let start: Buffer = Buffer.from(options.startKey ?? prefix);
    let revision = options.revision;
    let pageSize = limit === 0 ? 0 : options.predicate ? Math.max(limit, MIN_PREDICATE_PAGE) : limit;
    let lastKey: string | undefined;
    let remainingItemCount: number | undefined;

    for (;;) {
      const request: IRangeRequest = { key: start, range_end: rangeEnd };
      if (pageSize > 0) request.limit = pageSize;
      if (revision !== undefined) request.revision = revision;
      if (known) request.keys_only = true;
      const res = await etcdCall(prefix, () => this.#range(request, known !== undefined), 'list');
      revision ??= res.revision;
      const objects = res.keysOnly && known ? await this.#objectsOf(res.keysOnly, revision, known) : undefined;
      let kv: RawKeyValue | undefined;
      let consumed = 0;
      for (kv of res.kvs) {
        consumed++;
        const key = kv.key.toString('utf8');
        if (raw) raw.push({ key, value: kv.value, resourceVersion: String(kv.modRevision) });
        else {
          const obj = objects ? (objects[consumed - 1] as ApiObject) : decodeObject(key, kv.value, kv.modRevision);
          if (options.predicate && !options.predicate(obj)) continue;
          items.push(obj);
        }
        if (limit > 0 && (raw?.length ?? items.length) === limit) {
          lastKey = key;
          break;
        }
      }
      const unreadInPage = res.kvs.length - consumed;
      const moreInEtcd = res.more || unreadInPage > 0;
      if (limit > 0 && (raw?.length ?? items.length) === limit) {
        if (!moreInEtcd) lastKey = undefined;
        else if (!options.predicate) remainingItemCount = res.count - consumed;
        break;
      }
      if (!res.more || !kv) break;
      start = keyAfter(kv.key.toString('utf8'));
      pageSize = Math.min(pageSize * 2, MAX_PREDICATE_PAGE);
    }
    const result: ListResult = { items, revision };
    if (raw) result.raw = raw;
    if (lastKey !== undefined) result.lastKey = lastKey;
    if (remainingItemCount !== undefined && remainingItemCount > 0) result.remainingItemCount = remainingItemCount;
    return result;
  }

  /**
   * A range's response: read in place (raw-range.ts) or, for a keys-only range whose key-values #objectsOf reads, as
   * the etcd3 client's objects too.
   */
  async #range(request: IRangeRequest, keysOnly: boolean): Promise<RawRangeResponse & { keysOnly?: IKeyValue[] }> {
    if (!keysOnly) return rawRange(this.#client, request);
    const res = await this.#client.kv.range(request);
    return { ...rangeResponseOf(res), keysOnly: res.kvs };
  }

  /** The objects of a keys-only page: the known ones as they are, the others read at `revision` and decoded. */
  async #objectsOf(kvs: IKeyValue[], revision: number, known: NonNullable<ListOptions['known']>): Promise<ApiObject[]> {
    const objects: (ApiObject | undefined)[] = kvs.map((kv) => known(kv.key.toString('utf8'), String(kv.mod_revision)));
    const missing = objects.flatMap((o, i) => (o === undefined ? [i] : []));
    for (let at = 0; at < missing.length; at += MAX_TXN_OPS) {
      const batch = missing.slice(at, at + MAX_TXN_OPS);
      const res = await etcdCall(
        String(kvs[0]?.key ?? ''),
        () =>
          this.#client.kv.txn({
            compare: [],
            success: batch.map((i) => ({ request_range: { key: (kvs[i] as IKeyValue).key, revision } })),
            failure: [],
          }),
        'list',
      );
      batch.forEach((i, n) => {
        const value = res.responses[n]?.response_range.kvs[0];
        const key = (kvs[i] as IKeyValue).key.toString('utf8');
        if (!value) throw new StorageError('InvalidObject', key, `key ${key} vanished at revision ${revision}`);
        objects[i] = decodeObject(key, value.value, value.mod_revision);
      });
    }
    return objects as ApiObject[];
  }

  async create(key: string, created: ApiObject, options?: PutOptions): Promise<ApiObject> {
    const obj = storedForm(created);
    const json = encodeObject(obj);
    const keyBuf = Buffer.from(key);
    const lease = await this.#leaseFor(key, options);
    const res = await etcdWrite(key, () => createIfAbsent(this.#client, keyBuf, json, lease), 'create');
    if (res.ok) {
      if (!res.value.succeeded) throw new StorageError('KeyExists', key, `key exists: ${key}`);
      return withStoredJson(obj, json, res.value.revision);
    }
    const settled = await this.#settle(key, res.err, res.cls, () =>
      settleCreate(this.#client, keyBuf, obj.metadata.uid),
    );
    if (!settled.applied) throw new StorageError('KeyExists', key, `key exists: ${key}`);
    return withStoredJson(obj, json, settled.revision);
  }

  /**
   * A failed write: one that provably did not reach etcd fails as it is; one that may have is settled by reading
   * back, and fails with 504 Timeout (outcome unknown) when the read-back cannot tell.
   */
  async #settle(
    key: string,
    err: unknown,
    cls: EtcdFailureClass,
    settle: () => Promise<Settled>,
  ): Promise<NonNullable<Settled>> {
    if (cls !== 'timeout' && cls !== 'interrupted') throw toStorageError(err, key);
    const settled = await settle();
    this.writeOutcomes[settled === undefined ? 'unknown' : settled.applied ? 'applied' : 'notApplied']++;
    if (settled === undefined) throw unknownOutcome(err, key);
    return settled;
  }

  /** How writes whose answer was lost were settled, for tests and benchmarks. */
  readonly writeOutcomes = { applied: 0, notApplied: 0, unknown: 0 };

  async guaranteedUpdate(
    key: string,
    update: UpdateFunc,
    options?: PutOptions,
  ): Promise<{ object: ApiObject; deleted: boolean }> {
    const keyBuf = Buffer.from(key);
    let current = await this.get(key);
    for (;;) {
      const updated = await update(structuredClone(current));
      const result = updated.delete ? updated : { ...updated, object: storedForm(updated.object) };
      // An update that changes nothing is not written (no new revision, no watch event), as in Kubernetes.
      if (!result.delete && sameStoredState(result.object, current)) return { object: current, deleted: false };
      const modRevision = current.metadata.resourceVersion ?? '0';
      const json = result.delete ? '' : encodeObject(result.object);
      const written = result.delete ? null : Buffer.from(json);
      const lease = written === null ? 0 : await this.#leaseFor(key, options);
      const success =
        written === null
          ? [{ request_delete_range: { key: keyBuf } }]
          : [{ request_put: { key: keyBuf, value: written, lease } }];
      const res = await etcdWrite(
        key,
        () =>
          this.#client.kv.txn({
            compare: [{ key: keyBuf, target: 'Mod', result: 'Equal', mod_revision: modRevision }],
            success,
            failure: [{ request_range: { key: keyBuf } }],
          }),
        'update',
      );
      const revision = res.ok
        ? res.value.succeeded
          ? res.value.header.revision
          : undefined
        : await this.#settleSwap(key, res, modRevision, written);
      if (revision !== undefined) {
        const object = result.delete
          ? withResourceVersion(result.object, revision)
          : withStoredJson(result.object, json, revision);
        return { object, deleted: result.delete === true };
      }
      current = res.ok
        ? this.#currentFromFailure(key, res.value.responses[0]?.response_range.kvs[0])
        : await this.get(key);
    }
  }

  async delete(key: string, check?: DeleteCheck): Promise<ApiObject> {
    const keyBuf = Buffer.from(key);
    let current = await this.get(key);
    for (;;) {
      check?.(current);
      const modRevision = current.metadata.resourceVersion ?? '0';
      const res = await etcdWrite(
        key,
        () =>
          this.#client.kv.txn({
            compare: [{ key: keyBuf, target: 'Mod', result: 'Equal', mod_revision: modRevision }],
            success: [{ request_delete_range: { key: keyBuf } }],
            failure: [{ request_range: { key: keyBuf } }],
          }),
        'delete',
      );
      const revision = res.ok
        ? res.value.succeeded
          ? res.value.header.revision
          : undefined
        : await this.#settleSwap(key, res, modRevision, null);
      if (revision !== undefined) return withResourceVersion(current, revision);
      current = res.ok
        ? this.#currentFromFailure(key, res.value.responses[0]?.response_range.kvs[0])
        : await this.get(key);
    }
  }

  /** The revision of a compare-and-swap whose answer was lost when it was applied; undefined when it never will be. */
  async #settleSwap(
    key: string,
    res: { err: unknown; cls: EtcdFailureClass },
    modRevision: string,
    written: Buffer | null,
  ): Promise<string | undefined> {
    const settled = await this.#settle(key, res.err, res.cls, () =>
      settleSwap(this.#client, Buffer.from(key), modRevision, written),
    );
    return settled.applied ? settled.revision : undefined;
  }

  override watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return watchPrefix(this.#client, prefix, afterRevision, sink);
  }

  watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    return watchChanges(this.#client, prefix, afterRevision, sink);
  }

  requestWatchProgress(): boolean {
    return watchProgressOf(this.#client)?.request() ?? false;
  }

  override async currentRevision(): Promise<number> {
    return etcdCall('revision', () => currentRevision(this.#client));
  }

  async count(prefix: string): Promise<number> {
    const res = await etcdCall(
      prefix,
      () =>
        this.#client.kv.range({
          key: Buffer.from(prefix),
          range_end: prefixRangeEnd(Buffer.from(prefix)),
          count_only: true,
        }),
      'listWithCount',
    );
    return Number(res.count);
  }

  async ping(): Promise<void> {
    await etcdCall('health', () =>
      this.#client.kv.range({ key: Buffer.from('health'), serializable: false, count_only: true }),
    );
  }

  async close(): Promise<void> {
    this.#client.close();
  }

  #currentFromFailure(key: string, kv: IKeyValue | undefined): ApiObject {
    if (!kv) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return decodeObject(key, kv.value, kv.mod_revision);
  }
}

/** Equal as stored JSON (resourceVersion aside): key order and undefined-valued keys, which JSON drops, do not count. */
function sameStoredState(a: ApiObject, b: ApiObject): boolean {
  const { resourceVersion: _a, ...metaA } = a.metadata;
  const { resourceVersion: _b, ...metaB } = b.metadata;
  return jsonEqual({ ...a, metadata: metaA }, { ...b, metadata: metaB });
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ra = a as Record<string, unknown>; // plain JSON objects: checked above to be non-null, non-array objects
  const rb = b as Record<string, unknown>;
  const keysA = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const keysB = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => jsonEqual(ra[k], rb[k]));
}

function withResourceVersion(obj: ApiObject, revision: string | number): ApiObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
}
