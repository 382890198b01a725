// GenericStore: the one implementation of the verbs; a ResourceDefinition's strategy supplies what differs per kind.
// The writes live here, the reads and keys in store-reads.ts.
import type { StatusError } from '../../apimachinery/errors';
import {
  alreadyExists,
  conflict,
  generateNameConflict,
  invalid,
  notFound,
  OBJECT_MODIFIED_TEXT,
} from '../../apimachinery/errors';
import type { DeleteOptions } from '../../apimachinery/meta/delete-options';
import type { ApiObject } from '../../apimachinery/meta/types';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta';
import type { Storage } from '../../storage/storage';
import { isStorageError } from '../../storage/storage-error';
import { groupKind, groupResource } from '../rest/resource';
import type { Strategy } from '../rest/strategy';
import { checkDeletePreconditions, finalizersForDeletion } from './deletion';
import { DryRunStorage } from './dry-run-storage';
import { generateName } from './generate-name';
import {
  carrySystemMetadataOnUpdate,
  ensureRequestNamespace,
  fillSystemMetadataOnCreate,
  nowTimestamp,
  refuseResourceVersionOnCreate,
} from './system-metadata';
import type { Admission, AdmissionAttributes, AdmissionOperation } from './admission';
import type { WriteGuard } from './write-guard';
import type { UserInfo } from '../../apimachinery/user';
import type { RequestContext } from './request-context';
import type { ListParams, ListOutcome } from './list';
import { GenericStoreReads, type GenericStoreOptions } from './store-reads';
import { invalidResourceVersion } from '../../apimachinery/meta/resource-version';

export type { GenericStoreOptions } from './store-reads';

/** generateName collisions are retried this many times before 409 (Kubernetes itself does not retry). */
const GENERATE_NAME_ATTEMPTS = 8;
const GENERATE_NAME_RETRY_AFTER_SECONDS = 1;

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
  /** The API request the write serves, for admission (webhooks); absent for the server's own writes. */
  context?: RequestContext;
  /** POST: a resourceVersion in the body fails the write as etcd3 store.Create does (not on create-on-update). */
  refuseResourceVersion?: boolean;
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

export class GenericStore extends GenericStoreReads {
  readonly #dryRunStorage: Storage;
  readonly #admission: Admission | undefined;
  readonly #subresource: string | undefined;
  readonly #guard: WriteGuard | undefined;

  constructor(options: GenericStoreOptions) {
    super(options);
    this.#dryRunStorage = new DryRunStorage(options.storage);
    this.#admission = options.admission;
    this.#guard = options.guard;
    this.#subresource = options.subresource;
  }

  /** The same resource and storage with another strategy (a subresource's, e.g. `status`). */
  withStrategy(strategy: Strategy, subresource?: string): GenericStore {
    return new GenericStore({
      ...(subresource ? { subresource } : {}),
      definition: this.definition,
      strategy,
      storage: this.storage,
      keyPrefix: this.keyPrefix,
      admission: this.#admission,
      guard: this.#guard,
    });
  }

  async create(namespace: string, obj: ApiObject, options: WriteOptions): Promise<WriteResult> {
    const storage = options.dryRun ? this.#dryRunStorage : this.storage;
    if (options.transform) obj = options.transform(obj, undefined);
    await this.#admission?.admitCreate(this.definition, namespace, obj);
    obj =
      (await this.#admission?.mutate?.({
        ...this.#attributes('CREATE', namespace, obj.metadata.name ?? '', options),
        object: obj,
      })) ?? obj;
    if (options.user) this.#guard?.admitWrite(this.definition, namespace, obj, options.user);
    const sentResourceVersion = obj.metadata.resourceVersion;
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
      ...this.#attributes('CREATE', namespace, obj.metadata.name ?? '', options),
      object: obj,
    });

    if (options.refuseResourceVersion && !options.dryRun) refuseResourceVersionOnCreate(sentResourceVersion);
    for (let attempt = 1; ; attempt++) {
      const name = obj.metadata.name ?? '';
      try {
        const created = await storage.create(this.keyFor(namespace, name), obj);
        if (!options.dryRun) this.#admission?.afterWrite?.(this.definition, created);
        return { object: created, warnings, created: true };
      } catch (err) {
        if (!isStorageError(err, 'KeyExists')) throw this.statusError(err, name, 'create');
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
      throw this.statusError(err, name, 'update');
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
        return this.create(namespace, obj, {
          dryRun: options.dryRun,
          ...(options.user ? { user: options.user } : {}),
          ...(options.context ? { context: options.context } : {}),
        });
      }
      throw this.statusError(err, name, 'update');
    }
  }

  async #guaranteedUpdate(
    namespace: string,
    name: string,
    desired: (current: ApiObject) => ApiObject,
    options: WriteOptions,
  ): Promise<WriteResult> {
    const storage = options.dryRun ? this.#dryRunStorage : this.storage;
    let warnings: string[] = [];
    const { object } = await storage.guaranteedUpdate(this.keyFor(namespace, name), async (current) => {
      let obj = desired(structuredClone(current));
      if (options.transform) obj = options.transform(obj, current);
      const attributes = { ...this.#attributes('UPDATE', namespace, name, options), oldObject: current };
      obj = (await this.#admission?.mutate?.({ ...attributes, object: obj })) ?? obj;
      const requested = obj.metadata.resourceVersion;
      // Not a revision at all is the client's mistake (1.26: the versioner's parse error as a 500), never a conflict to retry.
      const unparsable = requested ? invalidResourceVersion(requested) : undefined;
      if (unparsable !== undefined) throw unparsable;
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
    const storage = writeOptions.dryRun ? this.#dryRunStorage : this.storage;
    const key = this.keyFor(namespace, name);
    const gk = groupKind(this.definition);
    try {
      const current = await storage.get(key);
      await this.#admission?.admitDelete(this.definition, namespace, name);
      // As rest.AdmissionToValidateObjectDeleteFunc does: mutating, then validating admission with the stored object.
      const attributes = this.#attributes('DELETE', namespace, name, writeOptions, {
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        ...options,
      });
      await this.#admission?.mutate?.({ ...attributes, oldObject: current });
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
      throw this.statusError(err, name, 'delete');
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
    { dryRun, context }: WriteOptions,
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
      ...(context ? { context } : {}),
    };
    attributes.options = requestOptions ?? {
      kind,
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    };
    return attributes;
  }

  #setNamespace(obj: ApiObject, namespace: string): void {
    ensureRequestNamespace(obj, this.strategy.namespaced, namespace);
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
    const existing = await this.storage.get(this.keyFor(namespace, name)).catch(() => undefined);
    return alreadyExists(
      groupResource(this.definition),
      name,
      existing?.metadata.deletionTimestamp ? 'object is being deleted: ' : '',
    );
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
