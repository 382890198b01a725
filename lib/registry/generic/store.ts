// GenericStore: the one implementation of the verbs; a ResourceDefinition's strategy supplies what differs per kind.
import type { StatusError } from '../../apimachinery/errors';
import {
  alreadyExists,
  badRequest,
  conflict,
  generateNameConflict,
  invalid,
  notFound,
  OBJECT_MODIFIED_TEXT,
} from '../../apimachinery/errors';
import type { DeleteOptions } from '../../apimachinery/meta/delete-options';
import type { ApiObject } from '../../apimachinery/meta/types';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta';
import { isValidPathSegmentName } from '../../apimachinery/validation/names';
import { goQuote } from '../../apimachinery/field/errors';
import type { RawItem, Storage, WatchHandle, WatchSink } from '../../storage/storage';
import { decodeStoredValue } from '../../apimachinery/serializers/served-json';
import { isStorageError, StorageError } from '../../storage/storage-error';
import type { Cacher } from '../../storage/cacher/cacher';
import { sinkDelivery } from '../../storage/cacher/sink-delivery';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import { startCachedWatch, startDirectWatch, type StartedWatch } from './client-watch';
import type { ResourceDefinition } from '../rest/resource';
import { groupKind, groupResource } from '../rest/resource';
import type { Strategy } from '../rest/strategy';
import { checkDeletePreconditions, finalizersForDeletion } from './deletion';
import { DryRunStorage } from './dry-run-storage';
import { generateName } from './generate-name';
import { toStatusError } from './storage-errors';
import { carrySystemMetadataOnUpdate, fillSystemMetadataOnCreate, nowTimestamp } from './system-metadata';
import type { Admission, AdmissionAttributes, AdmissionOperation } from './admission';
import type { WriteGuard } from './write-guard';
import type { UserInfo } from '../../apimachinery/user';
import { listObjects, waitForStorageRevision, type ListParams, type ListOutcome } from './list';

/** generateName collisions are retried this many times before 409 (Kubernetes itself does not retry). */
const GENERATE_NAME_ATTEMPTS = 8;
const GENERATE_NAME_RETRY_AFTER_SECONDS = 1;
const NAMESPACE_MISMATCH_TEXT = 'the namespace of the provided object does not match the namespace sent on the request';

export interface WriteOptions {
  dryRun: boolean;
  /**
   * Runs on the object to write before admission and the strategy, with the stored object (undefined
   * on create): the handler's field manager records managedFields here, as Kubernetes' transformers do.
   */
  transform?: (obj: ApiObject, live: ApiObject | undefined) => ApiObject;
  /** PATCH of a missing object creates what this returns (server-side apply), answered 201. */
  createMissing?: () => ApiObject;
  /** The requesting user, for the resource's write guard; absent for the server's own writes. */
  user?: UserInfo;
}

export interface WriteResult {
  object: ApiObject;
  warnings: string[];
  /** True when an update created the object (201). */
  created: boolean;
}

export type DeleteOutcome =
  | { kind: 'deleted'; object: ApiObject }
  /** Finalizers hold the object: it is now (or already was) terminating. */
  | { kind: 'terminating'; object: ApiObject; accepted: boolean };

export interface GenericStoreOptions {
  definition: ResourceDefinition;
  /** Strategy for writes through this store (main or status). */
  strategy: Strategy;
  storage: Storage;
  /** Storage key prefix of this resource, ending in `/`. */
  keyPrefix: string;
  admission?: Admission;
  /** The resource's watch cache; without one, watches and rv=0 reads go to etcd. */
  cacher?: Cacher;
  /** The subresource this store writes (admission tells webhooks), when it is not the main resource. */
  subresource?: string;
  /** Who may write what (RBAC escalation prevention). */
  guard?: WriteGuard;
}

export class GenericStore {
  readonly definition: ResourceDefinition;
  readonly strategy: Strategy;
  readonly keyPrefix: string;
  readonly #storage: Storage;
  readonly #dryRunStorage: Storage;
  readonly #admission: Admission | undefined;
  readonly #cacher: Cacher | undefined;
  readonly #subresource: string | undefined;
  readonly #guard: WriteGuard | undefined;

  constructor(options: GenericStoreOptions) {
    this.definition = options.definition;
    this.strategy = options.strategy;
    this.keyPrefix = options.keyPrefix;
    this.#storage = options.storage;
    this.#dryRunStorage = new DryRunStorage(options.storage);
    this.#admission = options.admission;
    this.#cacher = options.cacher;
    this.#guard = options.guard;
    this.#subresource = options.subresource;
  }

  /** The same resource and storage with another strategy (a subresource's, e.g. `status`). */
  withStrategy(strategy: Strategy, subresource?: string): GenericStore {
    return new GenericStore({
      ...(subresource ? { subresource } : {}),
      definition: this.definition,
      strategy,
      storage: this.#storage,
      keyPrefix: this.keyPrefix,
      admission: this.#admission,
      cacher: this.#cacher,
      guard: this.#guard,
    });
  }

  get namespaced(): boolean {
    return this.strategy.namespaced;
  }

  /** The object's etcd key; a name that cannot be a path segment is 400 (registry NamespaceKeyFunc / NoNamespaceKeyFunc). */
  keyFor(namespace: string, name: string): string {
    const problems = isValidPathSegmentName(name);
    if (problems.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${problems.join(';')}`);
    return this.strategy.namespaced ? `${this.keyPrefix}${namespace}/${name}` : `${this.keyPrefix}${name}`;
  }

  /** Prefix of a collection: one namespace, or every object when `namespace` is empty. */
  collectionPrefix(namespace: string): string {
    return this.strategy.namespaced && namespace !== '' ? `${this.keyPrefix}${namespace}/` : this.keyPrefix;
  }

  async get(namespace: string, name: string, revision?: number): Promise<ApiObject> {
    try {
      return await this.#storage.get(this.keyFor(namespace, name), revision === undefined ? {} : { revision });
    } catch (err) {
      throw this.#statusError(err, name, 'get');
    }
  }

  /** An object's stored JSON and resourceVersion, undecoded (plain JSON GETs serve the bytes as they are). */
  async getJson(namespace: string, name: string): Promise<{ json: string; resourceVersion: string }> {
    try {
      return await this.#storage.getJson(this.keyFor(namespace, name));
    } catch (err) {
      throw this.#statusError(err, name, 'get');
    }
  }

  /**
   * The latest object as getJson read it: the watch cache's object when it holds the same version (what is kept with
   * it, protobuf bytes, is reused instead of decoding and encoding again), else the stored value decoded.
   */
  latestObject(namespace: string, name: string, stored: { json: string; resourceVersion: string }): ApiObject {
    return (
      this.#cachedAt(this.keyFor(namespace, name), stored.resourceVersion) ??
      decodeStoredValue(stored.json, stored.resourceVersion)
    );
  }

  /** A listed object, or the watch cache's object of the same version (decoded once, its encodings kept). */
  cachedVersionOf(obj: ApiObject): ApiObject {
    return (
      this.#cachedAt(
        this.keyFor(obj.metadata.namespace ?? '', obj.metadata.name ?? ''),
        obj.metadata.resourceVersion ?? '',
      ) ?? obj
    );
  }

  /** A raw list item as an object: the watch cache's when it holds that version, else the stored value decoded. */
  rawItemObject(item: RawItem): ApiObject {
    return this.#cachedAt(item.key, item.resourceVersion) ?? decodeStoredValue(item.value, item.resourceVersion);
  }

  /** The watch cache's object at `key` when it is exactly `resourceVersion` (same stored bytes, decoded once). */
  #cachedAt(key: string, resourceVersion: string): ApiObject | undefined {
    const cached = this.#cacher?.get(key);
    return cached?.metadata.resourceVersion === resourceVersion ? cached : undefined;
  }

  /** `raw`: the caller can serve etcd's stored bytes as they are (plain JSON lists). */
  async list(namespace: string, params: ListParams, raw = false): Promise<ListOutcome> {
    try {
      return await listObjects(this.#storage, this.collectionPrefix(namespace), params, this.#cacher, raw);
    } catch (err) {
      throw this.#statusError(err, '', 'list');
    }
  }

  /** A client watch (see client-watch.ts), served from the watch cache when there is one. */
  async startWatch(
    namespace: string,
    params: Pick<ListParams, 'predicate' | 'resourceVersion' | 'sendInitialEvents'>,
    delivery: WatchDelivery,
  ): Promise<StartedWatch> {
    const request = {
      prefix: this.collectionPrefix(namespace),
      resourceVersion: params.resourceVersion,
      delivery,
      ...(params.predicate ? { predicate: params.predicate } : {}),
      ...(params.sendInitialEvents !== undefined ? { sendInitialEvents: params.sendInitialEvents } : {}),
    };
    try {
      return this.#cacher
        ? await startCachedWatch(this.#storage, this.#cacher, request)
        : await startDirectWatch(this.#storage, request);
    } catch (err) {
      throw this.#statusError(err, '', 'list');
    }
  }

  /**
   * get by resourceVersion: unset reads etcd (Most Recent); `0` reads the watch cache (Any); N reads the cache
   * once it has reached N, else etcd, waiting up to 3 s for etcd to reach N (then 504).
   */
  async getAtVersion(namespace: string, name: string, resourceVersion: number | undefined): Promise<ApiObject> {
    const key = this.keyFor(namespace, name);
    try {
      if (resourceVersion === undefined && this.#cacher && (await this.#cacher.caughtUpWithEtcd())) {
        const cached = this.#cacher.get(key);
        if (cached === undefined) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
        return cached;
      }
      if (
        resourceVersion !== undefined &&
        this.#cacher &&
        (await this.#cacher.waitReady()) &&
        this.#cacher.revision >= resourceVersion
      ) {
        const cached = this.#cacher.get(key);
        if (cached === undefined) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
        return cached;
      }
      if (resourceVersion !== undefined && resourceVersion > 0)
        await waitForStorageRevision(this.#storage, resourceVersion);
      return await this.#storage.get(key);
    } catch (err) {
      throw this.#statusError(err, name, 'get');
    }
  }

  /**
   * Changes in a namespace (or everywhere) after a revision (controllers): from the watch cache when there is
   * one and its window reaches back to `afterRevision`, else straight from etcd.
   */
  async watch(namespace: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    const prefix = this.collectionPrefix(namespace);
    if (this.#cacher && (await this.#cacher.waitReady())) {
      const started = this.#cacher.watch({ prefix, delivery: sinkDelivery(sink), internal: true }, afterRevision);
      if (started.kind === 'started') return { cancel: async () => started.watch.stop() };
    }
    return this.#storage.watch(prefix, afterRevision, sink);
  }

  async create(namespace: string, obj: ApiObject, options: WriteOptions): Promise<WriteResult> {
    const storage = options.dryRun ? this.#dryRunStorage : this.#storage;
    if (options.transform) obj = options.transform(obj, undefined);
    await this.#admission?.admitCreate(this.definition, namespace, obj);
    obj =
      (await this.#admission?.mutate?.({
        ...this.#attributes('CREATE', namespace, obj.metadata.name ?? '', options.dryRun),
        object: obj,
      })) ?? obj;
    if (options.user) this.#guard?.admitWrite(this.definition, namespace, obj, options.user);
    fillSystemMetadataOnCreate(obj);
    this.#setNamespace(obj, namespace);
    this.strategy.prepareForCreate(obj);
    const generate = !obj.metadata.name && Boolean(obj.metadata.generateName);
    if (generate) obj.metadata.name = generateName(obj.metadata.generateName ?? '');
    this.#throwIfInvalid(obj, [
      ...validateObjectMeta(obj.metadata, this.strategy.namespaced, this.strategy.validateName),
      ...this.strategy.validate(obj),
    ]);
    const warnings = this.strategy.warningsOnCreate(obj);
    this.strategy.canonicalize(obj);
    await this.#admission?.validate?.({
      ...this.#attributes('CREATE', namespace, obj.metadata.name ?? '', options.dryRun),
      object: obj,
    });

    for (let attempt = 1; ; attempt++) {
      const name = obj.metadata.name ?? '';
      try {
        const created = await storage.create(this.keyFor(namespace, name), obj);
        if (!options.dryRun) this.#admission?.afterWrite?.(this.definition, created);
        return { object: created, warnings, created: true };
      } catch (err) {
        if (!isStorageError(err, 'KeyExists')) throw this.#statusError(err, name, 'create');
        if (!generate) throw await this.#alreadyExists(namespace, name);
        if (attempt >= GENERATE_NAME_ATTEMPTS)
          throw generateNameConflict(groupResource(this.definition), name, GENERATE_NAME_RETRY_AFTER_SECONDS);
        obj.metadata.name = generateName(obj.metadata.generateName ?? '');
      }
    }
  }

  /** PUT: compare-and-swap update, or create when the strategy allows create-on-update. */
  async update(namespace: string, name: string, body: ApiObject, options: WriteOptions): Promise<WriteResult> {
    this.#setNamespace(body, namespace);
    try {
      return await this.#guaranteedUpdate(namespace, name, () => structuredClone(body), options);
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) {
        if (!this.strategy.allowCreateOnUpdate) throw notFound(groupResource(this.definition), name);
        return { ...(await this.create(namespace, body, options)), created: true };
      }
      throw this.#statusError(err, name, 'update');
    }
  }

  /** PATCH: `patch` turns the current object into the desired one; retried on interference like any update. */
  async patch(
    namespace: string,
    name: string,
    patch: (current: ApiObject) => ApiObject,
    options: WriteOptions,
  ): Promise<WriteResult> {
    try {
      return await this.#guaranteedUpdate(
        namespace,
        name,
        (current) => {
          const obj = patch(current);
          this.#setNamespace(obj, namespace);
          return obj;
        },
        options,
      );
    } catch (err) {
      if (options.createMissing && isStorageError(err, 'KeyNotFound')) {
        const obj = options.createMissing();
        this.#setNamespace(obj, namespace);
        return this.create(namespace, obj, { dryRun: options.dryRun, ...(options.user ? { user: options.user } : {}) });
      }
      throw this.#statusError(err, name, 'update');
    }
  }

  async #guaranteedUpdate(
    namespace: string,
    name: string,
    desired: (current: ApiObject) => ApiObject,
    options: WriteOptions,
  ): Promise<WriteResult> {
    const storage = options.dryRun ? this.#dryRunStorage : this.#storage;
    let warnings: string[] = [];
    const { object } = await storage.guaranteedUpdate(this.keyFor(namespace, name), async (current) => {
      let obj = desired(structuredClone(current));
      if (options.transform) obj = options.transform(obj, current);
      const attributes = { ...this.#attributes('UPDATE', namespace, name, options.dryRun), oldObject: current };
      obj = (await this.#admission?.mutate?.({ ...attributes, object: obj })) ?? obj;
      const requested = obj.metadata.resourceVersion;
      if (requested && requested !== current.metadata.resourceVersion)
        throw conflict(groupResource(this.definition), name, OBJECT_MODIFIED_TEXT);
      if (!requested && this.strategy.allowUnconditionalUpdate)
        obj.metadata.resourceVersion = current.metadata.resourceVersion;
      carrySystemMetadataOnUpdate(obj, current);
      this.strategy.prepareForUpdate(obj, current);
      this.#throwIfInvalid(obj, [
        ...validateObjectMetaUpdate(obj.metadata, current.metadata),
        ...this.strategy.validateUpdate(obj, current),
      ]);
      if (options.user) this.#guard?.admitWrite(this.definition, namespace, obj, options.user);
      warnings = this.strategy.warningsOnUpdate(obj, current);
      this.strategy.canonicalize(obj);
      await this.#admission?.validate?.({ ...attributes, object: obj });
      return { object: obj, delete: this.#shouldDeleteDuringUpdate(obj) };
    });
    if (!options.dryRun) this.#admission?.afterWrite?.(this.definition, object);
    return { object, warnings, created: false };
  }

  async delete(
    namespace: string,
    name: string,
    options: DeleteOptions,
    writeOptions: WriteOptions,
  ): Promise<DeleteOutcome> {
    const storage = writeOptions.dryRun ? this.#dryRunStorage : this.#storage;
    const key = this.keyFor(namespace, name);
    const gk = groupKind(this.definition);
    try {
      const current = await storage.get(key);
      await this.#admission?.admitDelete(this.definition, namespace, name);
      // As the delete handler does: mutating admission without objects, validating admission with the stored one.
      const attributes = this.#attributes('DELETE', namespace, name, writeOptions.dryRun, {
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        ...options,
      });
      await this.#admission?.mutate?.(attributes);
      await this.#admission?.validate?.({ ...attributes, oldObject: current });
      checkDeletePreconditions(gk, current, options);
      const accepted = options.orphanDependents === false;
      const finalizers = finalizersForDeletion(current, options);
      if (current.metadata.deletionTimestamp) {
        const refusal = this.strategy.deleteWhileTerminatingError?.(current);
        if (refusal) throw refusal;
        return { kind: 'terminating', object: current, accepted };
      }
      if (
        finalizers !== undefined ||
        (current.metadata.finalizers ?? []).length > 0 ||
        this.strategy.blocksDeletion?.(current) === true
      ) {
        const { object } = await storage.guaranteedUpdate(key, (latest) => {
          checkDeletePreconditions(gk, latest, options);
          markTerminating(latest, finalizers);
          this.strategy.prepareForTerminating?.(latest);
          return { object: latest };
        });
        if (!writeOptions.dryRun) this.#admission?.afterWrite?.(this.definition, object);
        return { kind: 'terminating', object, accepted };
      }
      const deleted = await storage.delete(key, (latest) => checkDeletePreconditions(gk, latest, options));
      if (!writeOptions.dryRun) this.#admission?.afterWrite?.(this.definition, deleted);
      return { kind: 'deleted', object: deleted };
    } catch (err) {
      throw this.#statusError(err, name, 'delete');
    }
  }

  /** Lists what matches, deletes each (NotFound ignored), and returns the list as read. */
  async deleteCollection(
    namespace: string,
    params: ListParams,
    options: DeleteOptions,
    writeOptions: WriteOptions,
  ): Promise<ListOutcome> {
    const listed = await this.list(namespace, params);
    const queue = [...listed.items];
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        try {
          await this.delete(item.metadata.namespace ?? '', item.metadata.name ?? '', options, writeOptions);
        } catch (err) {
          if ((err as StatusError).status?.code !== 404) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_COLLECTION_WORKERS, queue.length) }, worker));
    return listed;
  }

  #attributes(
    operation: AdmissionOperation,
    namespace: string,
    name: string,
    dryRun: boolean,
    requestOptions?: Record<string, unknown>,
  ): AdmissionAttributes {
    const kind = operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions';
    const attributes: AdmissionAttributes = {
      definition: this.definition,
      operation,
      namespace: this.strategy.namespaced ? namespace : '',
      name,
      dryRun,
      ...(this.#subresource ? { subresource: this.#subresource } : {}),
    };
    attributes.options = requestOptions ?? {
      kind,
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    };
    return attributes;
  }

  #setNamespace(obj: ApiObject, namespace: string): void {
    if (!this.strategy.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (obj.metadata.namespace && obj.metadata.namespace !== namespace) throw badRequest(NAMESPACE_MISMATCH_TEXT);
    obj.metadata.namespace = namespace;
  }

  #throwIfInvalid(obj: ApiObject, errors: ReturnType<Strategy['validate']>): void {
    if (errors.length > 0) throw invalid(groupKind(this.definition), obj.metadata.name ?? '', errors);
  }

  /** A terminating object whose last finalizer is gone is removed by the update itself. */
  #shouldDeleteDuringUpdate(obj: ApiObject): boolean {
    if (!obj.metadata.deletionTimestamp || (obj.metadata.finalizers ?? []).length > 0) return false;
    return this.strategy.blocksDeletion?.(obj) !== true;
  }

  async #alreadyExists(namespace: string, name: string): Promise<Error> {
    const existing = await this.#storage.get(this.keyFor(namespace, name)).catch(() => undefined);
    return alreadyExists(
      groupResource(this.definition),
      name,
      existing?.metadata.deletionTimestamp ? 'object is being deleted: ' : '',
    );
  }

  #statusError(err: unknown, name: string, operation: Parameters<typeof toStatusError>[1]['operation']): Error {
    return toStatusError(err, { resource: groupResource(this.definition), name, operation });
  }
}

const DELETE_COLLECTION_WORKERS = 16;

/** markAsDeleting: deletionTimestamp now, grace period 0, generation bumped once. */
function markTerminating(obj: ApiObject, finalizers: string[] | undefined): void {
  if (finalizers !== undefined) obj.metadata.finalizers = finalizers;
  if (obj.metadata.deletionTimestamp) return;
  if ((obj.metadata.generation ?? 0) > 0) obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
  obj.metadata.deletionTimestamp = nowTimestamp();
  obj.metadata.deletionGracePeriodSeconds = 0;
}
